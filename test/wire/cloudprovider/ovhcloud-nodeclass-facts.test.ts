// What OVH says about the project and MKS cluster an OVHNodeClass names, read through the real SDK against
// the emulator for the class's status: found, a project or cluster that does not exist (with the field), and
// credentials the API refuses — each a fact, while an outage is thrown.
import { afterEach, describe, expect, it } from 'vitest';
import { startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

let bed: OvhTestbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('OVHNodeClass facts for its status', () => {
  it('finds the project and cluster the class names', async () => {
    const b = (bed = await startOvhTestbed());
    expect(await b.provider.nodeClassFacts('OVHNodeClass', 'default')).toEqual({});
  });

  it('a project the credentials do not reach: ProjectNotFound facts naming spec.serviceName', async () => {
    const b = (bed = await startOvhTestbed({ nodeClass: { serviceName: 'ffffffffffffffffffffffffffffffff' } }));
    expect(await b.provider.nodeClassFacts('OVHNodeClass', 'default')).toEqual({
      notFound: {
        what: 'project',
        field: 'spec.serviceName',
        id: 'ffffffffffffffffffffffffffffffff',
        detail: expect.stringContaining('http 404') as unknown,
      },
    });
  });

  it('a cluster the project does not have: cluster facts naming spec.kubeId', async () => {
    const b = (bed = await startOvhTestbed({ nodeClass: { kubeId: '00000000-0000-4000-8000-000000000000' } }));
    expect((await b.provider.nodeClassFacts('OVHNodeClass', 'default'))?.notFound).toMatchObject({
      what: 'cluster',
      field: 'spec.kubeId',
      id: '00000000-0000-4000-8000-000000000000',
    });
  });

  it('credentials the API refuses (a 403 on the cluster read) are a fact, not an outage', async () => {
    const b = (bed = await startOvhTestbed());
    b.emulator.faults.add({ match: { action: 'getCluster' }, fault: { kind: 'server-error', status: 403 } });
    expect((await b.provider.nodeClassFacts('OVHNodeClass', 'default'))?.credentialsRejected).toContain('http 403');
  });

  it('an outage is thrown, so the status is left as it is', async () => {
    const b = (bed = await startOvhTestbed());
    b.emulator.faults.add({ match: { action: 'getCluster' }, fault: { kind: 'server-error', status: 503 } });
    await expect(b.provider.nodeClassFacts('OVHNodeClass', 'default')).rejects.toThrow(/reading mks cluster/);
  });
});
