/**
 * The one way to wrap a CloudProvider (call metrics, live catalogs, the leader's fence): every member of the
 * port is passed through unless the decorator wraps it, optional methods included, and an optional method is
 * present on the result exactly when the wrapped provider has it — callers test for it (`listClaimResources`
 * absent means the cloud allocates nothing besides instances). The member list below is checked against the
 * port by the compiler, so a member added to the port cannot be dropped by a decorator.
 */
import type { CloudProvider } from './types.js';

/** Every member of the port, each with how it is forwarded; the type rejects a missing or unknown member. */
const portMembers = {
  name: 'value',
  create: 'method',
  delete: 'method',
  get: 'method',
  list: 'method',
  getInstanceTypes: 'method',
  isDrifted: 'method',
  getSupportedNodeClasses: 'method',
  repairPolicies: 'method',
  listClaimResources: 'method',
  deleteClaimResource: 'method',
  detectedCluster: 'method',
  listRegions: 'method',
  nodeClassFacts: 'method',
} as const satisfies {
  readonly [K in keyof CloudProvider]-?: NonNullable<CloudProvider[K]> extends (...args: never[]) => unknown ? 'method' : 'value';
};

export type CloudProviderMethod = {
  [K in keyof typeof portMembers]: (typeof portMembers)[K] extends 'method' ? K : never;
}[keyof typeof portMembers];

/** The port's method names, optional ones included. */
export const CloudProviderMethods: readonly CloudProviderMethod[] = (Object.keys(portMembers) as (keyof typeof portMembers)[]).filter(
  (k): k is CloudProviderMethod => portMembers[k] === 'method',
);

type Method<K extends CloudProviderMethod> = NonNullable<CloudProvider[K]>;

/** For each method a decorator changes: its version, given the wrapped provider's (already bound). */
export type CloudProviderWrappers = { [K in CloudProviderMethod]?: (next: Method<K>) => Method<K> };

/** `inner` with the `wrappers` applied and every other member forwarded as it is. */
export function decorateCloudProvider(inner: CloudProvider, wrappers: CloudProviderWrappers): CloudProvider {
  const decorated = {} as Record<string, unknown>;
  for (const key of Object.keys(portMembers) as (keyof typeof portMembers)[]) {
    if (portMembers[key] === 'value') {
      Object.defineProperty(decorated, key, { get: () => inner[key], enumerable: true });
      continue;
    }
    const method = inner[key as CloudProviderMethod] as ((...args: unknown[]) => unknown) | undefined;
    if (method === undefined) continue;
    const next = method.bind(inner);
    const wrap = wrappers[key as CloudProviderMethod] as ((next: unknown) => unknown) | undefined;
    decorated[key] = wrap ? wrap(next) : next;
  }
  return decorated as unknown as CloudProvider;
}
