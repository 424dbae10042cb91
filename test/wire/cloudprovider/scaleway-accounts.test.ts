// After a restart, before any list(): a server of a NodeClass with its own credentials is found by get() and
// deleted by delete() — termination and garbage collection ask before the next listing, and the NodeClaim
// handed in may name no NodeClass (a leak) or one being deleted.
import { describe, expect, it } from 'vitest';
import type { ScalewayNodeClass } from '../../../src/apis/v1alpha1/scaleway-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import {
  createScalewayClient,
  createScalewayCloudProvider,
  type ScalewayCloudProvider,
} from '../../../src/cloudprovider/scaleway/index.js';
import type { CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import { ClusterName, FastRetry, MapResolver, startTestbed, type Testbed } from './scaleway-testbed.js';

const operator = {
  accessKey: 'SCWAAAAAAAAAAAAAAAAA',
  secretKey: '0a0a0a0a-0000-4000-8000-000000000001',
  projectId: '0a0a0a0a-0000-4000-8000-0000000000a1',
  organizationId: '0a0a0a0a-0000-4000-8000-0000000000f1',
};
const team = {
  accessKey: 'SCWBBBBBBBBBBBBBBBBB',
  secretKey: '0b0b0b0b-0000-4000-8000-000000000002',
  projectId: '0b0b0b0b-0000-4000-8000-0000000000b2',
  organizationId: '0a0a0a0a-0000-4000-8000-0000000000f1',
};

class ListingResolver extends MapResolver {
  async listNodeClasses(): Promise<ScalewayNodeClass[]> {
    return [...this.nodeClasses.values()];
  }
}

function restarted(bed: Testbed): ScalewayCloudProvider {
  const resolver = new ListingResolver();
  for (const [name, nodeClass] of bed.resolver.nodeClasses) resolver.nodeClasses.set(name, nodeClass);
  for (const [key, data] of bed.resolver.secrets) resolver.secrets.set(key, data);
  const apiFactory = (c: { accessKey: string; secretKey: string; projectId: string }) =>
    createScalewayClient({ apiUrl: bed.emulator.url, ...c, defaultZone: 'fr-par-1' });
  return createScalewayCloudProvider({
    clusterName: ClusterName,
    region: 'fr-par',
    catalog: loadCatalog('scaleway'),
    api: bed.api,
    apiFactory,
    nodeClasses: resolver,
    unavailableOfferings: new UnavailableOfferings({ clock: bed.clock }),
    clock: bed.clock,
    random: () => 0.5,
    retryPolicy: FastRetry,
    // Only get() and delete() are called on it: no create to record.
    recordCreateAttempt: () => Promise.reject(new Error('this test creates nothing through the restarted provider')),
  });
}

describe('Scaleway: accounts resolve from the NodeClasses after a restart', () => {
  it('get() and delete() find a team-account server before any list(), for a NodeClaim without NodeClass', async () => {
    const bed = await startTestbed({ emulator: { credentials: [operator, team] }, perNodeClassCredentials: true });
    try {
      bed.resolver.secrets.set('team/scw', { SCW_ACCESS_KEY: team.accessKey, SCW_SECRET_KEY: team.secretKey });
      bed.nodeClass.spec.credentialsSecretRef = { name: 'scw', namespace: 'team' };
      bed.nodeClass.spec.projectId = team.projectId;
      const launched = await bed.provider.create(
        bed.nodeClaim('team-node', [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['DEV1-S'] }]),
      );
      expect((await restarted(bed).get(launched.providerID)).nodeClaimName).toBe('team-node');
      const leak: CloudProviderNodeClaim = {
        metadata: { name: 'team-node' },
        spec: { nodeClassRef: { group: '', kind: '', name: '' }, requirements: [] },
        status: { providerID: launched.providerID },
      };
      await restarted(bed).delete(leak);
      expect(bed.emulator.state().instances.find((i) => i.name === 'team-node')?.state).not.toBe('running');
    } finally {
      await bed.close();
    }
  });
});
