/** How state names the objects it indexes. */
import type { KubernetesObject } from '@kubernetes/client-node';
import { LabelNodePool } from '../apis/index.js';

/** `<namespace>/<name>`, or `<name>` for cluster-scoped objects. */
export function objectKey(object: KubernetesObject): string {
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

export function nodePoolOf(object: KubernetesObject): string | undefined {
  return object.metadata?.labels?.[LabelNodePool];
}

export function hasDeletionTimestamp(object: KubernetesObject): boolean {
  const ts = object.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}
