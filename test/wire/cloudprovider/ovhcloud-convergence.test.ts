import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { isNodeClaimNotFoundError } from '../../../src/cloudprovider/errors.js';
import { ovhClientSettingsFromEnv } from '../../../src/cloudprovider/ovhcloud/index.js';
import type { CloudNodeClaim, CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { liveNodes, startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

/** What the lifecycle and termination controllers do: call again until the answer is final. */
async function untilDone<T>(fn: () => Promise<T>, attempts = 30): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (error) {
      if (i >= attempts) throw error;
    }
  }
}

async function deleteUntilGone(bed: OvhTestbed, claim: CloudProviderNodeClaim): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      await bed.provider.delete(claim);
    } catch (error) {
      if (isNodeClaimNotFoundError(error)) return;
    }
    bed.settle(5_000);
  }
  throw new Error(`nodeclaim ${claim.metadata?.name} never reported gone`);
}

describe('ovhcloud provider converges under random 5xx and 429', () => {
  let bed: OvhTestbed;

  afterEach(async () => {
    await bed.close();
  });

  it('no duplicate nodes, no lost increments, no leaked pools', async () => {
    bed = await startOvhTestbed({ emptyPoolGraceMs: 60_000, emulator: { seed: 11 } });
    for (const action of ['createNodePool', 'updateNodePool', 'listNodePools', 'getNodePool', 'listNodePoolNodes', 'listNodes']) {
      bed.emulator.faults.add({ match: { action }, fault: { kind: 'server-error', status: 503 }, probability: 0.25 });
      bed.emulator.faults.add({ match: { action }, fault: { kind: 'throttle', retryAfterSeconds: 1 }, probability: 0.1 });
    }
    const claims = Array.from({ length: 10 }, (_, i) =>
      bed.nodeClaim(`conv-${i}`, [
        { key: LabelInstanceType, operator: 'In', values: [i % 2 === 0 ? 'b3-8' : 'b3-16'] },
        { key: LabelTopologyZone, operator: 'In', values: [`eu-west-par-${'abc'[i % 3]}`] },
      ]),
    );
    const launched: CloudNodeClaim[] = await Promise.all(claims.map((c) => untilDone(() => bed.provider.create(c))));
    const faulted = bed.emulator.calls.records.filter((r) => r.fault !== undefined);
    expect(faulted.some((r) => r.action === 'updateNodePool' || r.action === 'createNodePool')).toBe(true);
    expect(faulted.some((r) => r.fault === 'throttle')).toBe(true);
    const state = bed.emulator.state();
    expect(new Set(launched.map((l) => l.providerID)).size).toBe(claims.length);
    expect(
      liveNodes(bed.emulator)
        .map((n) => n.providerID)
        .sort(),
    ).toEqual(launched.map((l) => l.providerID).sort());
    expect(state.pools.reduce((sum, p) => sum + p.desiredNodes, 0)).toBe(claims.length);

    await Promise.all(claims.map((c, i) => deleteUntilGone(bed, { ...c, status: { providerID: launched[i]?.providerID ?? '' } })));
    bed.emulator.faults.clear();
    bed.settle(120_000);
    await bed.provider.list();
    bed.settle();
    expect(liveNodes(bed.emulator)).toHaveLength(0);
    expect(bed.emulator.state().pools).toHaveLength(0);
  });
});

describe('ovhcloud client settings from the environment', () => {
  it.each([
    [
      { OVH_APPLICATION_KEY: 'ak', OVH_APPLICATION_SECRET: 'as', OVH_CONSUMER_KEY: 'ck' },
      { applicationKey: 'ak', applicationSecret: 'as', consumerKey: 'ck' },
    ],
    [
      { OVH_ENDPOINT: 'ovh-ca', OVH_APPLICATION_KEY: 'ak', OVH_APPLICATION_SECRET: 'as', OVH_CONSUMER_KEY: 'ck' },
      { endpoint: 'ovh-ca', applicationKey: 'ak', applicationSecret: 'as', consumerKey: 'ck' },
    ],
    [{ OVH_APPLICATION_KEY: 'ak', OVH_CONSUMER_KEY: 'ck' }, undefined],
  ])('%j', (env, expected) => {
    expect(ovhClientSettingsFromEnv(env)).toEqual(expected);
  });
});
