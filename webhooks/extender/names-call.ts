/**
 * The byte path of the extender's verbs: a NodeNames call of a view that finds nodes by their bytes is read,
 * answered and written without making a string per node name (src/byte-path/README.md). The same pure verbs
 * as the general path (filterSlots, scoreSlots) decide; this file only decodes and encodes, and hands every
 * other body back to the general path (undefined), which is the oracle these answers are tested against.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  failedNodeMaps,
  filterSlots,
  scoreSlots,
  type ExtenderClusterView,
  type ExtenderFilterResult,
  type ResolvedNodes,
  UnknownSlot,
  Verdict,
} from '../../src/domain/extender/index.js';
import { decodeExtenderPod } from './decode.js';
import { encodeFilterResult } from './encode.js';
import {
  encodeFilterOfNames,
  encodeScoresOfNames,
  failedNamesInInputOrder,
  findsNodesByBytes,
  isPlainSpan,
  type NameSpans,
  spanName,
} from '../../src/byte-path/index.js';
import { walkNodeNamesBody } from './json-body.js';

/** A NodeNames call whose names stay spans of the body. */
export interface NamesCall {
  pod: V1Pod;
  names: NameSpans;
  nodes: ResolvedNodes;
}

/**
 * The call read on its bytes, when the view finds nodes by their bytes and the body is a plain NodeNames body;
 * undefined: the general path decides (and reports what is wrong with the body). Throws ExtenderArgsError for
 * a Pod that is not one, as the general path does.
 */
export function namesCallOf(body: Buffer, view: ExtenderClusterView): NamesCall | undefined {
  if (!findsNodesByBytes(view)) return undefined;
  const walked = walkNodeNamesBody(body);
  if (!walked) return undefined;
  const nodes = view.nodesNamed(walked.names);
  // A name the view found is plain (it indexes no other); any other must be too, for its bytes to be its JSON
  // (a raw control character makes the body invalid JSON, which the general path reports before the Pod).
  for (let i = 0; i < nodes.slots.length; i++) if (nodes.slots[i] === UnknownSlot && !isPlainSpan(walked.names, i)) return undefined;
  return { pod: decodeExtenderPod(walked.members), names: walked.names, nodes };
}

/** The filter result with the names made strings, for failed names that must be written as objects are. */
function filterResultOfNames(names: NameSpans, verdicts: Uint8Array): ExtenderFilterResult {
  const { failed, unresolvable } = failedNodeMaps(verdicts, (i) => spanName(names, i));
  const kept: string[] = [];
  for (let i = 0; i < names.count; i++) if (verdicts[i] === Verdict.Keep) kept.push(spanName(names, i));
  return { Nodes: null, NodeNames: kept, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: '' };
}

/** The filter answer's bytes, and whether the provisioner must hear that the pod has no node left. */
export function filterAnswer({ pod, names, nodes }: NamesCall): { body: Buffer; needsCapacity: boolean } {
  const { verdicts, needsCapacity } = filterSlots(nodes, pod);
  const inOrder = failedNamesInInputOrder(names, nodes.slots, verdicts, nodes.columns.slotLimit);
  return { body: inOrder ? encodeFilterOfNames(names, verdicts) : encodeFilterResult(filterResultOfNames(names, verdicts)), needsCapacity };
}

/** The prioritize answer's bytes. */
export function prioritizeAnswer({ pod, names, nodes }: NamesCall): Buffer {
  return encodeScoresOfNames(names, scoreSlots(nodes, pod));
}
