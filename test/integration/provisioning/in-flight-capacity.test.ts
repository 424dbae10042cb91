/**
 * In-flight capacity is planned on, never provisioned twice: a NodeClaim that exists and is not being deleted
 * is part of the next pass's simulation from the moment it is created — before launch (several candidate
 * types), after launch, and while its Node has joined but is not yet registered or initialized. Each pass is
 * run by hand so the window between two passes is exactly the one under test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { AnnotationWorkloadBound, LabelCloud, type NodeClaim } from '../../../src/apis/index.js';
import { formatResourceList, parseResourceList } from '../../../src/domain/quantity/index.js';
import { Resources } from '../../../src/kube/index.js';
import { nodePool, type ProvisioningBed, startProvisioningBed } from './harness.js';

let bed: ProvisioningBed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

/** A pod that selects a label only the instance type gives (not the NodePool, not the kubelet). */
function cloudPod(name: string, cpu: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      nodeSelector: { [LabelCloud]: 'ovhcloud' },
      containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }],
    },
  };
}

async function pendingInState(b: ProvisioningBed, count: number): Promise<void> {
  await b.until(`${count} provisionable pods in state`, () => b.state.snapshot().pendingPods.length === count);
}

/** What the lifecycle controller's launch writes, without its registration step. */
async function launchOnly(b: ProvisioningBed, claim: NodeClaim): Promise<string> {
  const name = claim.metadata?.name ?? '';
  const instance = await b.provider.create(claim);
  await b.kube.patch(Resources.NodeClaim, { name }, { type: 'merge', body: { metadata: { labels: { ...instance.labels } } } });
  const status = {
    providerID: instance.providerID,
    capacity: formatResourceList(instance.capacity),
    allocatable: formatResourceList(instance.allocatable),
    conditions: [{ type: 'Launched', status: 'True', reason: 'Launched', message: '', lastTransitionTime: new Date().toISOString() }],
  };
  await b.kube.patch(Resources.NodeClaim, { name }, { type: 'merge', body: { status } }, { status: true });
  return instance.providerID;
}

describe('in-flight NodeClaims count as capacity for the next provisioning pass', () => {
  it('plans a pod once while its NodeClaim is not launched yet (several candidate types, no instance labels)', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    await pendingInState(b, 1);
    const first = await b.provisioner.provision();
    expect(first.created).toHaveLength(1);
    await b.until('the claim in state', () => b.state.nodeClaimList().length === 1);
    const [claim] = b.state.nodeClaimList();
    const types = claim?.spec.requirements.find((r) => r.key === 'node.kubernetes.io/instance-type')?.values ?? [];
    expect(types.length).toBeGreaterThan(1);
    const second = await b.provisioner.provision();
    expect(second.created).toEqual([]);
    expect(second.nominated).toEqual({ 'default/a': first.created[0] });
  }, 20_000);

  it('plans a pod once while its Node has joined but is not registered yet (kubelet labels and start-up taint only)', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    await pendingInState(b, 1);
    const first = await b.provisioner.provision();
    expect(first.created).toHaveLength(1);
    await b.until('the claim in state', () => b.state.nodeClaimList().length === 1);
    const providerID = await launchOnly(b, b.state.nodeClaimList()[0] as NodeClaim);
    await b.until("the kubelet's Node in state, joined to its claim", () =>
      b.state.stateNodes().some((n) => n.node && n.providerID === providerID && n.nodeClaim),
    );
    const node = b.state.stateNodes().find((n) => n.providerID === providerID)?.node;
    expect(node?.metadata?.labels?.[LabelCloud]).toBeUndefined();
    const second = await b.provisioner.provision();
    expect(second.created).toEqual([]);
    expect(Object.keys(second.nominated)).toEqual(['default/a']);
  }, 20_000);

  it("the fake instance's Node reports the allocatable its NodeClaim was planned with, as the clouds' kubelets do", async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    await pendingInState(b, 1);
    expect((await b.provisioner.provision()).created).toHaveLength(1);
    await b.until('the claim in state', () => b.state.nodeClaimList().length === 1);
    const providerID = await launchOnly(b, b.state.nodeClaimList()[0] as NodeClaim);
    await b.until("the kubelet's Node in state", () => b.state.stateNodes().some((n) => n.node && n.providerID === providerID));
    const node = b.state.stateNodes().find((n) => n.providerID === providerID)?.node;
    // A pass before initialization plans on the claim's allocatable (the catalog's), one after on the Node's: they agree.
    expect(parseResourceList(node?.status?.allocatable)).toEqual(b.provider.instances.get(providerID)?.allocatable);
  }, 20_000);

  it('a NodeClaim this process created but the state watch does not show yet counts with the same labels', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    await pendingInState(b, 1);
    const first = await b.provisioner.provision();
    expect(first.created).toHaveLength(1);
    // The pass right after, before the NodeClaim watch delivers the claim.
    const second = await b.provisioner.provision();
    expect(second.created).toEqual([]);
  }, 20_000);
  it('a NodeClaim another controller created (a disruption replacement, or one read back after a restart) counts too', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    const replacement = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { generateName: 'default-', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m-2', 'm-4'] }],
      },
    } as unknown as NodeClaim;
    const created = await b.kube.create<NodeClaim>(Resources.NodeClaim, replacement);
    await b.until('the replacement in state', () => b.state.nodeClaimList().length === 1);
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    await pendingInState(b, 1);
    const pass = await b.provisioner.provision();
    expect(pass.created).toEqual([]);
    expect(pass.nominated).toEqual({ 'default/a': created.metadata?.name });
  }, 20_000);
});

describe('a launched NodeClaim removed without ever running a workload is reported as waste', () => {
  const unusedTotal = async (b: ProvisioningBed): Promise<number> =>
    ((await b.metrics.registry.getSingleMetric('karpenter_eu_nodeclaims_terminated_unused_total')?.get())?.values ?? []).reduce(
      (s, v) => s + v.value,
      0,
    );

  it('marks the NodeClaim once a workload pod is bound, and its termination counts as used', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    const claim = await b.until('the claim marked as used', async () =>
      (await b.nodeClaims()).find((c) => c.metadata?.annotations?.[AnnotationWorkloadBound]),
    );
    await b.kube.delete(Resources.Pod, { name: 'a', namespace: 'default' }, { gracePeriodSeconds: 0 });
    await b.until('the pod gone', async () => (await b.pods()).length === 0);
    await b.kube.delete(Resources.NodeClaim, { name: claim.metadata?.name ?? '' });
    await b.until('the claim terminated', async () => (await b.nodeClaims()).length === 0, 20_000);
    expect(await unusedTotal(b)).toBe(0);
    expect((await b.events('TerminatedUnused')).length).toBe(0);
  }, 30_000);

  it('counts and reports a launched NodeClaim whose node never ran a workload pod', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    b.bootNodes = false;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, cloudPod('a', '1'));
    const claim = await b.until('the claim launched', async () => (await b.nodeClaims()).find((c) => c.status?.providerID));
    await b.kube.delete(Resources.Pod, { name: 'a', namespace: 'default' });
    await b.kube.delete(Resources.NodeClaim, { name: claim.metadata?.name ?? '' });
    await b.until('the claim terminated', async () => (await b.nodeClaims()).length === 0);
    expect(await unusedTotal(b)).toBe(1);
    const [event] = await b.events('TerminatedUnused');
    expect(event?.involvedObject?.name).toBe(claim.metadata?.name);
    expect(event?.message).toMatch(/never used/);
  }, 30_000);
});
