// Every wrapper the operator puts around a CloudProvider (call metrics, live catalogs, the leader's fence, the
// router) reaches the provider through every method of the port, optional ones included: the method list is
// the compiler-checked one of decorate.ts, so a method added to the port is covered here without editing this
// test. A forwarding decorator has an optional method exactly when its provider has it.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CloudProviderRouter, routedByName } from '../../../src/cloudprovider/cloud-provider-router.js';
import { CloudProviderMethods, decorateCloudProvider, type CloudProviderMethod } from '../../../src/cloudprovider/decorate.js';
import { LiveCatalogs } from '../../../src/cloudprovider/live-catalogs.js';
import { decorateWithMetrics } from '../../../src/cloudprovider/metrics.js';
import type {
  ClaimResource,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  NodeClassKind,
} from '../../../src/cloudprovider/types.js';
import { fencedCloudProvider, LeadershipFence } from '../../../src/operator/fence.js';
import { overlaidCloudProvider } from '../../../src/cloudprovider/node-overlays.js';
import { FakeClock } from '../../../src/util/clock.js';

const kind: NodeClassKind = { group: 'karpenter.outscale.sh', version: 'v1alpha1', kind: 'OutscaleNodeClass' };
const nodeClassRef = { group: kind.group, kind: kind.kind, name: 'default' };
const claim = {
  metadata: { name: 'gpu-abc', uid: 'u1' },
  spec: { nodeClassRef, requirements: [] },
  status: { providerID: 'aws:///eu-west-2a/i-1' },
} as unknown as CloudProviderNodeClaim;
const pool = {
  metadata: { name: 'gpu' },
  spec: { template: { spec: { nodeClassRef, requirements: [] } } },
} as unknown as CloudProviderNodePool;
const gpu: ClaimResource = { id: 'fgpu-1', kind: 'flexible-gpu', provider: 'outscale', nodeClaimName: 'gone', attached: false };

/** Arguments that every wrapper routes to the one provider below. */
const argumentsOf: Readonly<Record<CloudProviderMethod, readonly unknown[]>> = {
  create: [claim],
  delete: [claim],
  get: ['aws:///eu-west-2a/i-1'],
  list: [],
  getInstanceTypes: [pool],
  isDrifted: [claim],
  getSupportedNodeClasses: [],
  repairPolicies: [],
  listClaimResources: [],
  deleteClaimResource: [gpu],
  detectedCluster: [kind.kind, 'default'],
  listRegions: [],
  nodeClassFacts: [kind.kind, 'default'],
};

const syncAnswers: Partial<Record<CloudProviderMethod, unknown>> = { getSupportedNodeClasses: [kind], repairPolicies: [] };

/** A provider with every method of the port (or only the required ones), recording which were called. */
function fullProvider(withOptional: boolean): { provider: CloudProvider; calls: string[] } {
  const calls: string[] = [];
  const optional = new Set<CloudProviderMethod>([
    'listClaimResources',
    'deleteClaimResource',
    'detectedCluster',
    'listRegions',
    'nodeClassFacts',
  ]);
  const provider: Record<string, unknown> = { name: 'outscale' };
  for (const method of CloudProviderMethods) {
    if (!withOptional && optional.has(method)) continue;
    provider[method] = (): unknown => {
      calls.push(method);
      return method in syncAnswers ? syncAnswers[method] : Promise.resolve(method === 'get' || method === 'create' ? {} : []);
    };
  }
  return { provider: provider as unknown as CloudProvider, calls };
}

const wrappers: Readonly<Record<string, (inner: CloudProvider) => CloudProvider>> = {
  metrics: (inner) => decorateWithMetrics(inner, new Registry()),
  'live catalogs': (inner) => new LiveCatalogs({}).recording(inner),
  fence: (inner) => fencedCloudProvider(inner, new LeadershipFence(new FakeClock())),
  router: (inner) => new CloudProviderRouter([routedByName(inner)]),
  'node overlays': (inner) => overlaidCloudProvider(inner, { overlays: () => [], nodePool: () => undefined }),
  'the operator chain': (inner) =>
    fencedCloudProvider(
      new LiveCatalogs({}).recording(new CloudProviderRouter([routedByName(decorateWithMetrics(inner, new Registry()))])),
      new LeadershipFence(new FakeClock()),
    ),
};

async function callEach(decorated: CloudProvider): Promise<string[]> {
  const reached: string[] = [];
  for (const method of CloudProviderMethods) {
    const call = (decorated as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>)[method];
    expect(call, `${method} is missing`).toBeTypeOf('function');
    await call?.apply(decorated, [...argumentsOf[method]]);
    reached.push(method);
  }
  return reached;
}

describe('CloudProvider wrappers forward the whole port', () => {
  it('covers the optional methods, and only methods', () => {
    expect(CloudProviderMethods).toEqual(expect.arrayContaining(['listClaimResources', 'deleteClaimResource', 'listRegions']));
    expect(CloudProviderMethods).not.toContain('name');
  });

  it.each(Object.keys(wrappers))('%s: each method of the port reaches the provider', async (name) => {
    const { provider, calls } = fullProvider(true);
    const decorated = (wrappers[name] as (inner: CloudProvider) => CloudProvider)(provider);
    expect(decorated.name).toBe(name === 'router' || name === 'the operator chain' ? 'karpenter-eu' : 'outscale');
    calls.length = 0;
    await callEach(decorated);
    expect(new Set(calls)).toEqual(new Set(CloudProviderMethods));
  });

  it.each(['metrics', 'live catalogs', 'fence', 'node overlays'])('%s: a method the provider lacks is absent, not a stand-in', (name) => {
    const { provider } = fullProvider(false);
    const decorated = (wrappers[name] as (inner: CloudProvider) => CloudProvider)(provider);
    expect('listClaimResources' in decorated).toBe(false);
    expect('deleteClaimResource' in decorated).toBe(false);
    expect('listRegions' in decorated).toBe(false);
    expect(typeof decorated.list).toBe('function');
  });

  it('a wrapper replaces only the methods it names, and calls the provider with `this` bound', async () => {
    class Counting {
      readonly name = 'counting';
      listed = 0;
      list(): Promise<never[]> {
        this.listed += 1;
        return Promise.resolve([]);
      }
    }
    const inner = new Counting();
    const decorated = decorateCloudProvider(inner as unknown as CloudProvider, {
      list: (next) => async () => [...(await next()), ...(await next())],
    });
    expect(await decorated.list()).toEqual([]);
    expect(inner.listed).toBe(2);
    expect(decorated.name).toBe('counting');
  });
});
