import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceGPUName, LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import {
  isCreateError,
  isNodeClaimNotFoundError,
  isNodeClassNotReadyError,
  isQuotaExceededError,
  isTransientCloudError,
  InsufficientCapacityError,
  QuotaExceededError,
  findInChain,
} from '../../../src/cloudprovider/errors.js';
import type { CloudNodeClaim, CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { ClusterName, startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';

let bed: OutscaleTestbed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function start(options?: Parameters<typeof startOutscaleTestbed>[0]): Promise<OutscaleTestbed> {
  bed = await startOutscaleTestbed(options);
  return bed;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

function withProviderID(nodeClaim: CloudProviderNodeClaim, launched: CloudNodeClaim): CloudProviderNodeClaim {
  return { ...nodeClaim, status: { providerID: launched.providerID } };
}

const cheapIn = (zone: string) => [
  { key: LabelInstanceType, operator: 'In' as const, values: ['tinav5.c2r4p3'] },
  { key: LabelTopologyZone, operator: 'In' as const, values: [zone] },
];

/** Steps the shared FakeClock whenever the provider sleeps, until `promise` settles. */
async function driveClock<T>(b: OutscaleTestbed, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (b.clock.waiting > 0) b.clock.step(1_000);
  }
  return tracked;
}

describe('Outscale CloudProvider on the emulator: create', () => {
  it('launches with ClientToken = NodeClaim UID, the subnet of the subregion, and tags the VM for the GC and the CCM', async () => {
    const b = await start();
    const zone = b.emulator.subregions[1] as string;
    const nodeClaim = b.nodeClaim('tagged', cheapIn(zone));
    const launched = await b.provider.create(nodeClaim);
    const create = b.sent.find((s) => s.action === 'CreateVms')?.body;
    expect(create).toMatchObject({
      ClientToken: nodeClaim.metadata?.uid,
      SubnetId: b.emulator.network.subnets[zone],
      SecurityGroupIds: [b.emulator.network.securityGroups.worker],
      ImageId: b.emulator.network.images.ubuntu,
      KeypairName: b.emulator.network.keypairName,
      VmType: 'tinav5.c2r4p3',
      BootOnCreation: true,
    });
    expect(Buffer.from(String(create?.UserData), 'base64').toString()).toContain('kubeadm join');
    const [vm] = b.liveVms();
    expect(launched.providerID).toBe(`aws:///${zone}/${vm?.id}`);
    expect(vm?.tags).toMatchObject({
      'karpenter.sh/managed-by': ClusterName,
      'karpenter.sh/nodeclaim': 'tagged',
      'karpenter.sh/nodepool': 'default',
      'OscK8sClusterID/cluster-1': 'owned',
      OscK8sNodeName: vm?.privateDnsName,
      team: 'platform',
    });
    expect(launched.nodeClaimName).toBe('tagged');
  });

  it('a VM whose tagging failed is not listed, and the retried create finishes it instead of launching a second one', async () => {
    const b = await start();
    const nodeClaim = b.nodeClaim('half-done', cheapIn(b.emulator.subregions[0] as string));
    const rule = b.emulator.failCreateTags({ times: 100 });
    expect(isTransientCloudError(await rejection(b.provider.create(nodeClaim)))).toBe(true);
    expect(b.liveVms()).toHaveLength(1);
    expect(await b.provider.list()).toHaveLength(0);
    b.emulator.faults.remove(rule);
    const launched = await b.provider.create(nodeClaim);
    expect(b.liveVms()).toHaveLength(1);
    expect(b.sent.filter((s) => s.action === 'CreateVms')).toHaveLength(1);
    expect((await b.provider.list()).map((i) => i.providerID)).toEqual([launched.providerID]);
  });

  it('deleting a NodeClaim whose create never returned finds its VM by ClientToken and terminates it: nothing leaks', async () => {
    const b = await start();
    const nodeClaim = b.nodeClaim('abandoned', cheapIn(b.emulator.subregions[0] as string));
    b.emulator.failCreateTags({ times: 100 });
    await rejection(b.provider.create(nodeClaim));
    await b.provider.delete(nodeClaim);
    b.settle();
    expect(b.liveVms()).toHaveLength(0);
    expect(isNodeClaimNotFoundError(await rejection(b.provider.delete(nodeClaim)))).toBe(true);
  });

  it('a throttled CreateVms is retried with the same ClientToken and launches one VM', async () => {
    const b = await start();
    b.emulator.faults.add({ match: { action: 'CreateVms' }, fault: { kind: 'throttle', retryAfterSeconds: 0 }, times: 2 });
    await b.provider.create(b.nodeClaim('throttled', cheapIn(b.emulator.subregions[0] as string)));
    const tokens = b.sent.filter((s) => s.action === 'CreateVms').map((s) => s.body.ClientToken);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(1);
    expect(b.liveVms()).toHaveLength(1);
  });

  it('a VM still hidden by eventual consistency is found by its ClientToken on retry and can be deleted at once', async () => {
    const b = await start();
    b.emulator.setConsistencyDelay(30_000);
    const nodeClaim = b.nodeClaim('hidden', cheapIn(b.emulator.subregions[0] as string));
    const first = await b.provider.create(nodeClaim);
    const again = await b.provider.create(nodeClaim);
    expect(again.providerID).toBe(first.providerID);
    expect(b.liveVms()).toHaveLength(1);
    await b.provider.delete(withProviderID(nodeClaim, first));
    b.settle();
    expect(b.liveVms()).toHaveLength(0);
  });

  it('a quota refusal is a QuotaExceededError naming the quota', async () => {
    const b = await start();
    b.emulator.setQuotas({ maxVms: 0 });
    const error = await rejection(b.provider.create(b.nodeClaim('over-quota', cheapIn(b.emulator.subregions[0] as string))));
    expect(isQuotaExceededError(error)).toBe(true);
    expect(findInChain(error, QuotaExceededError)?.quota).toBe('instances');
  });

  it('an image the cloud does not know is a CreateError with the API details', async () => {
    const b = await start({ nodeClass: (nc) => ({ ...nc, spec: { ...nc.spec, imageId: 'ami-0000dead' } }) });
    const error = await rejection(b.provider.create(b.nodeClaim('bad-image', cheapIn(b.emulator.subregions[0] as string))));
    expect(isCreateError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('ami-0000dead');
  });

  it('a GPU type is a stopped p1 VM, a linked flexible GPU, then a boot; deleting it frees the GPU', async () => {
    const b = await start();
    const nodeClaim = b.nodeClaim('gpu', [{ key: LabelInstanceGPUName, operator: 'In', values: ['v100'] }], {
      cpu: '1',
      'nvidia.com/gpu': '1',
    });
    const launched = await driveClock(b, b.provider.create(nodeClaim));
    expect(launched.instanceType).toMatch(/-v100$/);
    expect(b.sent.find((s) => s.action === 'CreateVms')?.body).toMatchObject({ BootOnCreation: false });
    const [vm] = b.liveVms();
    expect(vm?.performance).toBe('highest');
    expect(vm?.flexibleGpuIds).toHaveLength(1);
    expect(b.emulator.state().flexibleGpus[0]).toMatchObject({ modelName: 'nvidia-v100', deleteOnVmDeletion: true, vmId: vm?.id });
    b.settle();
    expect(b.liveVms()[0]?.state).toBe('running');
    await b.provider.delete(withProviderID(nodeClaim, launched));
    b.settle();
    expect(b.emulator.state().flexibleGpus).toHaveLength(0);
  });

  it('no flexible GPU in stock: InsufficientCapacityError, the bundle offering marked, the stopped VM given back', async () => {
    const b = await start();
    b.emulator.faults.add({ match: { action: 'CreateFlexibleGpu' }, fault: { kind: 'out-of-stock' } });
    const zone = b.emulator.subregions[0] as string;
    const nodeClaim = b.nodeClaim('gpu-ice', [
      { key: LabelInstanceGPUName, operator: 'In', values: ['v100'] },
      { key: LabelTopologyZone, operator: 'In', values: [zone] },
    ]);
    const error = await driveClock(b, rejection(b.provider.create(nodeClaim)));
    const ice = findInChain(error, InsufficientCapacityError);
    expect(ice?.offerings[0]).toMatchObject({ zone });
    expect(ice?.offerings[0]?.instanceType).toMatch(/-v100/);
    const types = await b.provider.getInstanceTypes(b.nodePool);
    expect(types.find((t) => t.name === ice?.offerings[0]?.instanceType)?.offerings.find((o) => o.zone === zone)?.available).toBe(false);
    b.settle();
    expect(b.liveVms()).toHaveLength(0);
    expect(b.emulator.state().flexibleGpus).toHaveLength(0);
  });
});

describe('Outscale CloudProvider on the emulator: list and garbage collection (seed 003)', () => {
  /** The GC of the post-mortem: NodeClaims whose VM is missing from list() are deleted. */
  async function collectGarbage(b: OutscaleTestbed, nodeClaims: CloudProviderNodeClaim[]): Promise<string[]> {
    const listed = await b.provider.list().catch(() => undefined);
    if (!listed) return [];
    const known = new Set(listed.map((i) => i.providerID));
    return nodeClaims.filter((nc) => !known.has(nc.status?.providerID ?? '')).map((nc) => nc.metadata?.name ?? '');
  }

  async function launchThree(b: OutscaleTestbed): Promise<CloudProviderNodeClaim[]> {
    const claims: CloudProviderNodeClaim[] = [];
    for (const [i, zone] of [b.emulator.subregions[0], b.emulator.subregions[1], b.emulator.subregions[0]].entries()) {
      const nc = b.nodeClaim(`node-${i}`, cheapIn(zone as string));
      claims.push(withProviderID(nc, await b.provider.create(nc)));
    }
    b.settle();
    return claims;
  }

  it('a failing ReadVms makes list throw, and the GC deletes nothing', async () => {
    const b = await start({ pageSize: 1 });
    const claims = await launchThree(b);
    const rule = b.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 503 } });
    expect(isTransientCloudError(await rejection(b.provider.list()))).toBe(true);
    expect(await collectGarbage(b, claims)).toEqual([]);
    b.emulator.faults.remove(rule);
    expect(await collectGarbage(b, claims)).toEqual([]);
    expect(b.emulator.calls.count({ action: 'DeleteVms' })).toBe(0);
    expect(b.liveVms()).toHaveLength(3);
  });

  it('a failing second page makes list throw — a partial list never reaches the GC', async () => {
    const b = await start({ pageSize: 1 });
    const claims = await launchThree(b);
    b.failNextPages.on = true;
    await rejection(b.provider.list());
    expect(await collectGarbage(b, claims)).toEqual([]);
    const pageReads = b.sent.filter((s) => s.action === 'ReadVms' && typeof s.body.NextPageToken === 'string');
    expect(pageReads.length).toBeGreaterThan(0);
    b.failNextPages.on = false;
    expect(await b.provider.list()).toHaveLength(3);
  });

  it('a ReadVms failing through every retry makes list throw; the next list reads everything', async () => {
    const b = await start();
    await launchThree(b);
    b.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 500 }, times: 3 });
    expect(isTransientCloudError(await rejection(b.provider.list()))).toBe(true);
    expect(await b.provider.list()).toHaveLength(3);
  });

  it('a ReadVms that never answers makes list throw after the client timeout', async () => {
    const b = await start({ timeoutMs: 50 });
    await launchThree(b);
    b.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'timeout', afterMs: 3_600_000 }, times: 3 });
    const error = await rejection(b.provider.list());
    expect(isTransientCloudError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('timed out');
    expect(await b.provider.list()).toHaveLength(3);
  });

  it('lists only this cluster’s VMs, every page, terminating ones flagged and terminated ones gone', async () => {
    const b = await start({ pageSize: 2 });
    const claims = await launchThree(b);
    await b.provider.delete(claims[0] as CloudProviderNodeClaim);
    const listed = await b.provider.list();
    expect(listed).toHaveLength(3);
    expect(listed.filter((i) => i.terminating).map((i) => i.providerID)).toEqual([claims[0]?.status?.providerID]);
    b.settle();
    expect((await b.provider.list()).map((i) => i.nodeClaimName).sort()).toEqual(['node-1', 'node-2']);
    const filters = b.sent.filter((s) => s.action === 'ReadVms').at(-1)?.body.Filters as Record<string, unknown>;
    expect(filters.Tags).toEqual([`karpenter.sh/managed-by=${ClusterName}`]);
    expect(filters.VmStateNames).not.toContain('terminated');
  });
});

describe('Outscale CloudProvider on the emulator: instance types and drift', () => {
  it('a NodeClass of another region, or a nodeClassRef of another kind, is NodeClassNotReady', async () => {
    const b = await start({ nodeClass: (nc) => ({ ...nc, spec: { ...nc.spec, region: 'us-east-2' } }) });
    const wrongRegion = await rejection(b.provider.getInstanceTypes(b.nodePool));
    expect(isNodeClassNotReadyError(wrongRegion)).toBe(true);
    expect(String((wrongRegion as Error).message)).toMatch(/spec.region is us-east-2; accepted: eu-west-2/);
    const otherKind = {
      ...b.nodePool,
      spec: {
        template: {
          spec: {
            ...b.nodePool.spec.template.spec,
            nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
          },
        },
      },
    };
    expect(isNodeClassNotReadyError(await rejection(b.provider.getInstanceTypes(otherKind)))).toBe(true);
  });

  it('prices types from ReadPublicCatalog and offers them only in the NodeClass subregions', async () => {
    const b = await start({ nodeClass: (nc) => ({ ...nc, spec: { ...nc.spec, subnets: nc.spec.subnets.slice(0, 1) } }) });
    const types = await b.provider.getInstanceTypes(b.nodePool);
    const small = types.find((t) => t.name === 'tinav5.c2r4p3');
    expect(small?.offerings.map((o) => o.zone)).toEqual([b.emulator.subregions[0]]);
    expect(small?.offerings[0]?.pricePerHour).toBeGreaterThan(0);
    expect(b.sent.some((s) => s.action === 'ReadPublicCatalog')).toBe(true);
    expect(types.some((t) => t.gpu?.name === 'v100')).toBe(true);
  });

  it.each([
    [
      'image',
      (b: OutscaleTestbed) => {
        b.nodeClass.spec.imageId = b.emulator.network.images.talos;
      },
      'ImageDrifted',
    ],
    [
      'security groups',
      (b: OutscaleTestbed) => {
        b.nodeClass.spec.securityGroupIds = [b.emulator.network.securityGroups.default];
      },
      'SecurityGroupsDrifted',
    ],
    [
      'subnets',
      (b: OutscaleTestbed) => {
        b.nodeClass.spec.subnets = b.nodeClass.spec.subnets.slice(1);
      },
      'SubnetDrifted',
    ],
    [
      'user data',
      (b: OutscaleTestbed) => {
        b.nodeClass.spec.userData = { format: 'CloudInit', content: '#cloud-config\n' };
      },
      'UserDataDrifted',
    ],
    [
      'tags',
      (b: OutscaleTestbed) => {
        b.nodeClass.spec.tags = { team: 'data' };
      },
      'TagsDrifted',
    ],
  ])('a VM launched before the NodeClass %s changed is drifted', async (_what, change, reason) => {
    const b = await start();
    const nodeClaim = b.nodeClaim('drift', cheapIn(b.emulator.subregions[0] as string));
    const launched = withProviderID(nodeClaim, await b.provider.create(nodeClaim));
    expect(await b.provider.isDrifted(launched)).toBeUndefined();
    change(b);
    expect(await b.provider.isDrifted(launched)).toBe(reason);
  });
});
