import { afterEach, describe, expect, it } from 'vitest';
import { isNodeClaimNotFoundError } from '../../../src/cloudprovider/errors.js';
import type { CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import type { FakeClock } from '../../../src/util/clock.js';
import { startTestbed, type Testbed, type TestbedOptions } from './scaleway-testbed.js';

const pin = (type: string, zones: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [type] },
  { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: zones },
];

/** Steps the fake clock until the promise settles (retries that honour Retry-After sleep on it). */
async function drive<T>(clock: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  for (let i = 0; i < 100 && !done; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    clock.step(1_000);
  }
  return tracked;
}

describe('Scaleway provider: delete, list, drift and instance types against the emulator', () => {
  let bed: Testbed;
  const start = async (options?: TestbedOptions) => (bed = await startTestbed(options));
  afterEach(async () => bed?.close());

  async function launched(name: string, zone = 'fr-par-1'): Promise<CloudProviderNodeClaim> {
    const nodeClaim = bed.nodeClaim(name, pin('DEV1-S', [zone]));
    const result = await bed.provider.create(nodeClaim);
    bed.settle();
    return { ...nodeClaim, status: { providerID: result.providerID } };
  }

  it('delete terminates, then deletes the root Block volume terminate left detached, then says NotFound', async () => {
    await start();
    const nodeClaim = await launched('del');
    await bed.provider.delete(nodeClaim);
    expect((await bed.provider.list()).map((i) => i.terminating)).toEqual([true]);
    bed.settle();
    expect(bed.emulator.state().volumes.map((v) => v.status)).toEqual(['available']);
    const error = await bed.provider.delete(nodeClaim).catch((e: unknown) => e);
    expect(isNodeClaimNotFoundError(error)).toBe(true);
    expect(bed.emulator.state().volumes).toEqual([]);
  });

  it('delete of a NodeClaim whose launch never returned a providerID finds its server by tags', async () => {
    await start();
    const nodeClaim = bed.nodeClaim('no-provider-id', pin('DEV1-S', ['fr-par-1']));
    await bed.provider.create(nodeClaim);
    bed.settle();
    await bed.provider.delete(nodeClaim);
    bed.settle();
    expect(bed.emulator.state().instances).toEqual([]);
  });

  it('list pages through X-Total-Count and throws when any page fails', async () => {
    let failPage2 = false;
    await start({
      listPageSize: 1,
      wrapFetch: (base) => async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (failPage2 && url.pathname.endsWith('/servers') && url.searchParams.get('page') === '2') {
          return new Response(JSON.stringify({ type: 'internal_error', message: 'internal error' }), {
            status: 500,
            headers: { 'Content-Type': 'application/json' },
          });
        }
        return base(input, init);
      },
    });
    for (const name of ['a', 'b', 'c']) await launched(name);
    expect(await bed.provider.list()).toHaveLength(3);
    failPage2 = true;
    await expect(bed.provider.list()).rejects.toThrow(/listing servers in fr-par-1/);
  });

  it('list waits out a 429 with Retry-After and answers in full', async () => {
    await start({ retryPolicy: { baseDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 4 } });
    await launched('throttled');
    bed.emulator.faults.add({ match: { action: 'listServers' }, fault: { kind: 'throttle', retryAfterSeconds: 2 }, times: 2 });
    const listed = await drive(bed.clock, bed.provider.list());
    expect(listed).toHaveLength(1);
  });

  it('get of an unknown server, or a foreign providerID, is NodeClaimNotFoundError', async () => {
    await start();
    for (const providerID of ['scaleway://instance/fr-par-1/11111111-1111-4111-8111-111111111111', 'aws:///eu-west-2a/i-123']) {
      expect(isNodeClaimNotFoundError(await bed.provider.get(providerID).catch((e: unknown) => e))).toBe(true);
    }
  });

  it.each([
    ['image', (bed: Testbed) => (bed.nodeClass.spec.image = 'debian_bookworm'), 'ImageDrifted'],
    [
      'security group',
      (bed: Testbed) => (bed.nodeClass.spec.securityGroupId = '22222222-2222-4222-8222-222222222222'),
      'SecurityGroupDrifted',
    ],
    ['user data', (bed: Testbed) => (bed.nodeClass.spec.userData = '#!/bin/sh\necho hi'), 'UserDataDrifted'],
    ['tags', (bed: Testbed) => (bed.nodeClass.spec.tags = { team: 'web' }), 'TagsDrifted'],
    [
      'private network',
      (bed: Testbed) => (bed.nodeClass.spec.privateNetworkId = '33333333-3333-4333-8333-333333333333'),
      'PrivateNetworkDrifted',
    ],
  ])('isDrifted notices a changed %s', async (_field, change, reason) => {
    await start();
    const nodeClaim = await launched('drift');
    expect(await bed.provider.isDrifted(nodeClaim)).toBeUndefined();
    change(bed);
    expect(await bed.provider.isDrifted(nodeClaim)).toBe(reason);
  });

  it('attaches the private network before poweron', async () => {
    await start();
    bed.nodeClass.spec.privateNetworkId = '44444444-4444-4444-8444-444444444444';
    await launched('pn');
    expect(bed.emulator.state().instances[0]?.privateNetworks).toEqual(['44444444-4444-4444-8444-444444444444']);
  });

  it('instance types carry products/servers prices per zone and availability (shortage unavailable, scarce available)', async () => {
    await start();
    bed.emulator.setAvailability('DEV1-S', 'fr-par-2', 'shortage');
    bed.emulator.setAvailability('DEV1-S', 'fr-par-3', 'scarce');
    const types = await bed.provider.getInstanceTypes(bed.nodePool);
    const dev1s = types.find((t) => t.name === 'DEV1-S');
    expect(dev1s?.offerings.map((o) => [o.zone, o.pricePerHour, o.available])).toEqual([
      ['fr-par-1', 0.01368, true],
      ['fr-par-2', 0.01368, false],
      ['fr-par-3', 0.01368, true],
    ]);
    const l4 = types.find((t) => t.name === 'L4-1-24G');
    expect(l4?.offerings.map((o) => o.zone)).toEqual(['fr-par-2']);
    expect(l4?.capacity['nvidia.com/gpu']).toBe(1);
  });

  it('a NodeClass with its own credentials Secret launches in that account, and list sees it', async () => {
    await start();
    const { accessKey, secretKey } = bed.emulator.credentials;
    bed.resolver.secrets.set('kube-system/scw', { SCW_ACCESS_KEY: accessKey, SCW_SECRET_KEY: secretKey });
    bed.nodeClass.spec.credentialsSecretRef = { name: 'scw', namespace: 'kube-system' };
    const error = await bed.provider.create(bed.nodeClaim('own-creds', pin('DEV1-S', ['fr-par-1']))).catch((e: unknown) => e);
    // Built without an apiFactory: the NodeClass is not usable, and says why.
    expect((error as Error).message).toMatch(/without an API factory/);
    bed.resolver.secrets.set('kube-system/scw', { SCW_ACCESS_KEY: accessKey });
    const missing = await bed.provider.create(bed.nodeClaim('own-creds-2', pin('DEV1-S', ['fr-par-1']))).catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/lacks SCW_ACCESS_KEY or SCW_SECRET_KEY/);
  });
});

describe('Scaleway provider: a NodeClass with its own account', () => {
  it('launches with the Secret’s credentials in the NodeClass project, and list() covers both accounts', async () => {
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
    const bed = await startTestbed({ emulator: { credentials: [operator, team] }, perNodeClassCredentials: true });
    try {
      await bed.provider.create(bed.nodeClaim('operator-node', pin('DEV1-S', ['fr-par-1'])));
      bed.resolver.secrets.set('team/scw', { SCW_ACCESS_KEY: team.accessKey, SCW_SECRET_KEY: team.secretKey });
      bed.nodeClass.spec.credentialsSecretRef = { name: 'scw', namespace: 'team' };
      bed.nodeClass.spec.projectId = team.projectId;
      await bed.provider.create(bed.nodeClaim('team-node', pin('DEV1-S', ['fr-par-1'])));
      expect(bed.emulator.state().instances.map((i) => [i.name, i.project])).toEqual([
        ['operator-node', operator.projectId],
        ['team-node', team.projectId],
      ]);
      expect((await bed.provider.list()).map((i) => i.nodeClaimName).sort()).toEqual(['operator-node', 'team-node']);
    } finally {
      await bed.close();
    }
  });
});
