/**
 * The byte path's one port: a view that answers for a request's node names where they lie in its body.
 * The service's ClusterState view implements it; the extender's shell uses it when the view does and the
 * body is a plain NodeNames body, and asks the domain's ExtenderClusterView name by name otherwise.
 */
import type { ResolvedNodes } from '../domain/extender/index.js';
import type { NameSpans } from './name-spans.js';

export interface NodesByBytes {
  /**
   * What ExtenderClusterView.get answers for each name, as slots of the view's columns (UnknownSlot for a
   * node the view does not hold), found without making a string per name.
   */
  nodesNamed(names: NameSpans): ResolvedNodes;
}

/** Whether the view finds nodes by the bytes of their names. */
export function findsNodesByBytes(view: object): view is NodesByBytes {
  return typeof (view as Partial<NodesByBytes>).nodesNamed === 'function';
}
