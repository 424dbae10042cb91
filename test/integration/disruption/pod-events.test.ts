// consolidateAfter counts from a node's last pod event however short the pod's stay: a pod that lands on an
// empty node and leaves between two disruption passes (a short Job) restarts the clock, as upstream's
// pod-events controller does from the pod watch. The bed runs passes by hand on the fake clock.
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/index.js';
import { Resources } from '../../../src/kube/index.js';
import * as builders from '../../builders.js';
import { mondayAt, nodePool, startTestBed, type TestBed } from './harness.js';

let bed: TestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const MINUTE = 60_000;

function claim(name: string): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: builders.TestNodeClassRef,
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m-2'] }],
    },
  } as NodeClaim;
}

describe('pod events between disruption passes', () => {
  it('a pod that came and went between two passes restarts consolidateAfter on the emptied node', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: '5m' }));
    await b.kube.create(Resources.NodeClaim, claim('a'));
    await b.until('node a initialized', () => b.state.stateNodes().some((n) => n.name === 'a' && n.initialized));
    const initializedAt = b.clock.now();
    // Empty, but for less than consolidateAfter since its initialization.
    expect(await b.disruptOnce()).toBeUndefined();

    b.clock.set(initializedAt + 4 * MINUTE);
    const jobAt = b.clock.now();
    await b.kube.create(Resources.Pod, builders.pod({ name: 'job', nodeName: 'a', requests: { cpu: '100m' } }));
    await b.until('the job seen on a', () => b.state.podsOnNode('a').length === 1, 20);
    await b.kube.delete(Resources.Pod, { name: 'job', namespace: 'default' });
    await b.until('the job gone from a', () => b.state.podsOnNode('a').length === 0, 20);

    // Six minutes after initialization, two after the job: the node has been empty for less than consolidateAfter.
    b.clock.set(initializedAt + 6 * MINUTE);
    expect(await b.disruptOnce()).toBeUndefined();
    expect(b.nodeClaims().map((c) => c.metadata?.name)).toEqual(['a']);
    // The clock the pass kept is on the NodeClaim, where a new leader reads it.
    await b.until('lastPodEventTime written', () => b.state.nodeClaim('a')?.status?.lastPodEventTime !== undefined, 20);
    const written = Date.parse(b.state.nodeClaim('a')?.status?.lastPodEventTime ?? '');
    expect(written).toBeGreaterThanOrEqual(jobAt);
    expect(written).toBeLessThan(initializedAt + 6 * MINUTE);

    // consolidateAfter after the job left, the empty node goes.
    b.clock.set(written + 5 * MINUTE);
    const decision = await b.disruptOnce();
    expect(decision?.command).toMatchObject({ reason: 'Empty', candidates: ['a'] });
  });
});
