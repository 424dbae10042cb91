/** Lists in key order (as etcd returns them) with selectors and limit/continue paging. */
import { type KubeObject, keyOf } from './kube-object.js';
import { type ListOptions, encodeContinue, matchesListOptions } from './list-options.js';
import { type ObjectStore } from './object-store.js';
import { type ResourceType, apiVersionOf, storageKey } from './resource-type.js';

export interface ListResult {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

export function listObjects(store: ObjectStore, type: ResourceType, options: ListOptions): ListResult {
  const matching: KubeObject[] = [];
  for (const obj of store.values(storageKey(type))) {
    if (options.continueFrom && keyOf(obj) <= options.continueFrom) continue;
    if (matchesListOptions(obj, type, options)) matching.push(obj);
  }
  matching.sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  const resourceVersion = store.resourceVersion;
  const metadata: ListResult['metadata'] = { resourceVersion: String(resourceVersion) };
  let items = matching;
  if (options.limit > 0 && matching.length > options.limit) {
    items = matching.slice(0, options.limit);
    const last = items[items.length - 1];
    if (last) metadata.continue = encodeContinue(keyOf(last), resourceVersion);
    metadata.remainingItemCount = matching.length - options.limit;
  }
  return { apiVersion: apiVersionOf(type), kind: type.listKind, metadata, items };
}
