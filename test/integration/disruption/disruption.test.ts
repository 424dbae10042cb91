import { afterEach, describe, expect, it } from 'vitest';
import type { V1Deployment, V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { solve } from '../../../src/domain/scheduling/index.js';
import { type ResourceKind, Resources } from '../../../src/kube/index.js';
import type { Clock, FakeClock } from '../../../src/util/clock.js';
import { mondayAt, nodePool, startTestBed, testInstanceTypes, type TestBed } from './harness.js';

/** Not in the controllers' Resources (they never write Deployments); the test does. */
const DeploymentKind: ResourceKind = {
  kind: 'Deployment',
  api: 'AppsV1Api',
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  namespaced: true,
  status: true,
};

let bed: TestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

function deployment(name: string, replicas: number, cpu: string): V1Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'c', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }] },
      },
    },
  };
}

function claim(name: string, type: string, pool = 'default'): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': pool } },
    spec: {
      nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [type] }],
    },
  } as NodeClaim;
}

async function setUp(b: TestBed, pool: NodePool, claims: NodeClaim[], deploy: V1Deployment): Promise<void> {
  await b.kube.create(Resources.NodePool, pool);
  for (const c of claims) await b.kube.create(Resources.NodeClaim, c);
  await b.until('nodes initialized', () => b.state.stateNodes().filter((n) => n.initialized).length === claims.length);
  await b.kube.create(DeploymentKind, deploy);
}

async function runningPods(b: TestBed, app: string): Promise<V1Pod[]> {
  const pods = (await b.kube.list<V1Pod>(Resources.Pod, { namespace: 'default', labelSelector: `app=${app}` })).items;
  return pods.filter((p) => p.spec?.nodeName && p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp);
}

function unbound(p: V1Pod): V1Pod {
  const { nodeName: _bound, ...spec } = p.spec ?? { containers: [] };
  return { metadata: p.metadata, spec };
}

/** The series of a metric in the bed's registry, as prom-client reads them. */
async function values(
  b: TestBed,
  name: string,
): Promise<{ labels: Partial<Record<string, string | number>>; value: number; metricName?: string }[]> {
  return (await b.metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
}

/** Disruption passes until one finds nothing to do; returns the commands taken. */
async function settle(b: TestBed, maxPasses = 12) {
  const taken = [];
  for (let i = 0; i < maxPasses; i++) {
    const d = await b.disruptOnce();
    if (!d) break;
    taken.push(d.command);
    await b.until('disrupted nodes gone', () => b.state.stateNodes().every((n) => !n.markedForDeletion));
  }
  return taken;
}

describe('disruption on the simulated cluster', () => {
  it('scale 10 → 2 replicas: consolidation reaches the cheapest packing', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] }),
      ['a', 'b', 'c', 'd', 'e'].map((n) => claim(n, 'm-4')),
      deployment('web', 10, '1'),
    );
    await b.until('10 pods running', async () => (await runningPods(b, 'web')).length === 10);
    expect(b.pricePerHour()).toBeCloseTo(0.4);

    await b.kube.patch(DeploymentKind, { name: 'web', namespace: 'default' }, { type: 'merge', body: { spec: { replicas: 2 } } });
    await b.until('2 pods left', async () => (await b.kube.list<V1Pod>(Resources.Pod, { namespace: 'default' })).items.length === 2);
    const commands = await settle(b);

    const pods = await runningPods(b, 'web');
    expect(pods).toHaveLength(2);
    const cheapest = solve({
      pods: pods.map(unbound),
      nodePools: [
        { name: 'default', nodeClassRef: { kind: 'TestNodeClass', name: 'default' }, requirements: [], instanceTypes: testInstanceTypes },
      ],
    });
    expect(b.pricePerHour()).toBeCloseTo(cheapest.totalPricePerHour);
    expect(commands.map((c) => c.reason)).toContain('Empty');
    for (const c of commands) if (c.reason === 'Underutilized') expect(c.pricePerHourAfter).toBeLessThan(c.pricePerHourBefore);
    const decisions = await b.metrics.registry.getSingleMetricAsString('karpenter_voluntary_disruption_decisions_total');
    expect(decisions).toMatch(/decision="delete",reason="empty"/);
    // One count per disrupted NodeClaim, with the NodePool's consolidation policy (upstream's labels).
    const disrupted = (await b.metrics.registry.getSingleMetric('karpenter_nodeclaims_disrupted_total')?.get())?.values ?? [];
    expect(disrupted.reduce((sum, v) => sum + v.value, 0)).toBe(commands.reduce((sum, c) => sum + c.candidates.length, 0));
    expect(disrupted.map((v) => v.labels['consolidation_policy'])).not.toContain('');
    expect(new Set(disrupted.map((v) => v.labels['consolidation_policy']))).toEqual(new Set(['when_empty_or_underutilized']));
    // The hourly price each executed command removed, summed per reason and decision.
    const removed = new Map<string, number>();
    for (const c of commands) {
      const key = `${c.reason.toLowerCase()}/${c.decision}`;
      removed.set(key, (removed.get(key) ?? 0) + Math.max(0, c.pricePerHourBefore - c.pricePerHourAfter));
    }
    const savings = await values(b, 'karpenter_eu_disruption_savings_eur_per_hour_total');
    expect(savings.map((v) => `${v.labels['reason']}/${v.labels['decision']}`).sort()).toEqual([...removed.keys()].sort());
    for (const v of savings) expect(v.value).toBeCloseTo(removed.get(`${v.labels['reason']}/${v.labels['decision']}`) ?? -1);
    expect(savings.reduce((sum, v) => sum + v.value, 0)).toBeCloseTo(0.4 - b.pricePerHour());
    // One evaluation per method a pass ran, as upstream measures each method: every method up to the one that
    // acted, and all four in the last pass, which found nothing.
    const evaluations = (await values(b, 'karpenter_voluntary_disruption_decision_evaluation_duration_seconds')).filter((v) =>
      v.metricName?.endsWith('_count'),
    );
    const methods = ['drifted/', 'empty/empty', 'underutilized/multi', 'underutilized/single'];
    const ran = new Map<string, number>();
    const passRan = (upTo: number) => methods.slice(0, upTo + 1).forEach((m) => ran.set(m, (ran.get(m) ?? 0) + 1));
    for (const c of commands)
      passRan(methods.indexOf(`${c.reason === 'Drifted' ? 'drifted' : c.reason.toLowerCase()}/${c.consolidationType}`));
    passRan(methods.length - 1);
    expect(new Map(evaluations.map((v) => [`${v.labels['reason']}/${v.labels['consolidation_type']}`, v.value]))).toEqual(ran);
  });

  it('counts a consolidation search its timeout cuts short, per consolidation type, as upstream', async () => {
    // The bed's clock, moved on by `stepMs` more at each reading: a search that reads it per simulation sees minutes pass.
    let stepMs = 0;
    let ahead = 0;
    const stepping = (base: FakeClock): Clock => ({
      now: () => base.now() + (ahead += stepMs),
      elapsed: () => base.elapsed() + ahead,
      sleep: (ms, signal) => base.sleep(ms, signal),
    });
    bed = await startTestBed({ start: mondayAt(12), disruptionClock: stepping });
    const b = bed;
    // Three nodes each full enough that no removal or cheaper replacement fits: every search tries, none finds.
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] }),
      ['a', 'b', 'c'].map((n) => claim(n, 'm-4')),
      deployment('web', 3, '3'),
    );
    await b.until('3 pods running', async () => (await runningPods(b, 'web')).length === 3);
    const timeouts = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (
          (await b.metrics.registry.getSingleMetric('karpenter_voluntary_disruption_consolidation_timeouts_total')?.get())?.values ?? []
        ).map((v) => [String(v.labels['consolidation_type']), v.value]),
      );

    expect(await b.disruptOnce()).toBeUndefined();
    expect(await timeouts()).toEqual({ multi: 0, single: 0 });

    stepMs = 2 * 60_000;
    expect(await b.disruptOnce()).toBeUndefined();
    expect(await timeouts()).toEqual({ multi: 1, single: 1 });
  });

  it('a nodes:"0" budget window in business hours blocks consolidation; it resumes after', async () => {
    bed = await startTestBed({ start: mondayAt(10) });
    const b = bed;
    const budgets = [{ nodes: '0', schedule: '0 9 * * 1-5', duration: '8h' }, { nodes: '100%' }];
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets }),
      ['a', 'b', 'c'].map((n) => claim(n, 'm-4')),
      deployment('web', 1, '1'),
    );
    await b.until('1 pod running', async () => (await runningPods(b, 'web')).length === 1);

    expect(await b.disruptOnce()).toBeUndefined();
    expect(b.nodeClaims()).toHaveLength(3);
    // Per reason, what the budgets allow at the pass: nothing inside the window.
    const allowed = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (await values(b, 'karpenter_nodepools_allowed_disruptions'))
          .filter((v) => v.labels['nodepool'] === 'default')
          .map((v) => [String(v.labels['reason']), v.value]),
      );
    expect(await allowed()).toEqual({ drifted: 0, empty: 0, underutilized: 0 });

    b.clock.set(mondayAt(17) + 30 * 60_000);
    await settle(b);
    expect(b.nodeClaims()).toHaveLength(1);
    expect(await runningPods(b, 'web')).toHaveLength(1);
    // After it, 100% of the one node left, as the last pass read it.
    expect(await allowed()).toEqual({ drifted: 1, empty: 1, underutilized: 1 });
  });

  it('a NodeClass image change (isDrifted) replaces nodes one budget at a time', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never', budgets: [{ nodes: '1', reasons: ['Drifted'] }] }),
      ['a', 'b', 'c'].map((n) => claim(n, 'm-2')),
      deployment('web', 3, '1'),
    );
    await b.until('3 pods running', async () => (await runningPods(b, 'web')).length === 3);
    const old = b.nodeClaims().map((c) => c.status?.providerID ?? '');
    for (const id of old) b.provider.driftedProviderIDs.add(id);

    const first = await b.disruptOnce();
    if (!first) throw new Error('expected a drift command');
    // Every drifted node is published for the scheduler extender to steer new pods away from.
    const oldNodes = old.map((id) => b.state.nodeByProvider(id)?.metadata?.name ?? '');
    expect(oldNodes.map((name) => b.state.disruptionOutlook(name))).toEqual(['drifted', 'drifted', 'drifted']);
    // …and written on the NodeClaims waiting their turn, as upstream's Drifted condition.
    const waiting = old.filter((id) => !first.command.candidates.includes(b.state.nodeClaimByProvider(id)?.metadata?.name ?? ''));
    await b.until('Drifted conditions on the waiting NodeClaims', () =>
      waiting.every((id) =>
        b.state
          .nodeClaimByProvider(id)
          ?.status?.conditions?.some((c) => c.type === 'Drifted' && c.status === 'True' && c.reason === 'ImageDrifted'),
      ),
    );
    await b.until('disrupted nodes gone', () => b.state.stateNodes().every((n) => !n.markedForDeletion));
    const commands = [first.command, ...(await settle(b))];
    expect(commands).toHaveLength(3);
    for (const c of commands) {
      expect(c).toMatchObject({ reason: 'Drifted', decision: 'replace', driftReason: 'ImageDrifted' });
      expect(c.candidates).toHaveLength(1);
    }
    const now = b.nodeClaims().map((c) => c.status?.providerID ?? '');
    expect(now).toHaveLength(3);
    expect(now.filter((id) => old.includes(id))).toEqual([]);
    // Each replacement was announced (the operator wires this to the lifecycle controller's queue).
    expect(b.announcedReplacements.sort()).toEqual(
      b
        .nodeClaims()
        .map((c) => c.metadata?.name ?? '')
        .sort(),
    );
    await b.until('3 pods running again', async () => (await runningPods(b, 'web')).length === 3);
  });

  it('counts a command whose replacement never launches as a queue failure, and keeps its candidate', async () => {
    bed = await startTestBed({ start: mondayAt(12), disruption: { replacementTimeoutMs: 60_000 } });
    const b = bed;
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never', budgets: [{ nodes: '1', reasons: ['Drifted'] }] }),
      ['a'].map((n) => claim(n, 'm-2')),
      deployment('web', 1, '1'),
    );
    await b.until('1 pod running', async () => (await runningPods(b, 'web')).length === 1);
    const old = b.nodeClaims().map((c) => c.status?.providerID ?? '');
    for (const id of old) b.provider.driftedProviderIDs.add(id);
    // The cloud refuses every launch from now on: the replacement never gets an instance.
    b.provider.allowedCreateCalls = b.provider.createCalls.length;

    const decision = await b.disruptOnce();
    expect(decision?.command).toMatchObject({ reason: 'Drifted', decision: 'replace' });
    const failures = await values(b, 'karpenter_voluntary_disruption_queue_failures_total');
    expect(failures.map((v) => [v.labels, v.value])).toEqual([[{ decision: 'replace', reason: 'drifted', consolidation_type: '' }, 1]]);
    // A failed command removed nothing: no savings, the candidate still serves its pod.
    expect(await values(b, 'karpenter_eu_disruption_savings_eur_per_hour_total')).toEqual([]);
    expect(b.nodeClaims().filter((c) => old.includes(c.status?.providerID ?? ''))).toHaveLength(1);
    expect(b.state.stateNodes().every((n) => !n.markedForDeletion)).toBe(true);
  });

  it('a PDB-protected pod delays the drain but is never violated', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] }),
      ['a', 'b', 'c'].map((n) => claim(n, 'm-8')),
      deployment('web', 3, '1'),
    );
    await b.kube.create(Resources.PodDisruptionBudget, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
    await b.until('3 pods running', async () => (await runningPods(b, 'web')).length === 3);
    // One read at a time, back to back: overlapping reads on a timer pile up on a busy machine.
    let minReady = 3;
    let settled = false;
    const watching = (async () => {
      while (!settled) minReady = Math.min(minReady, (await runningPods(b, 'web')).length);
    })();
    let commands;
    try {
      commands = await settle(b);
    } finally {
      settled = true;
      await watching;
    }
    // The three nodes hosting one web pod each are drained together: the PDB lets one eviction through at a
    // time, so the drain waits for each rescheduled pod to be Ready, and never goes below minAvailable.
    expect(commands?.[0]).toMatchObject({ reason: 'Underutilized', decision: 'replace', candidates: ['a', 'b', 'c'] });
    expect(minReady).toBeGreaterThanOrEqual(2);
    expect(b.pricePerHour()).toBeLessThan(0.48);
    await b.until('3 pods running at the end', async () => (await runningPods(b, 'web')).length === 3);
  });

  it('expireAfter deletes the NodeClaim forcefully, even under a nodes:"0" budget, with reason expired', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    const pool = nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never', budgets: [{ nodes: '0' }] });
    pool.spec.template.spec.expireAfter = '2h';
    await setUp(b, pool, [claim('old', 'm-2')], deployment('web', 1, '1'));
    await b.until('1 pod running', async () => (await runningPods(b, 'web')).length === 1);
    b.clock.step(60 * 60_000);
    await b.disruptOnce();
    expect(b.nodeClaims()).toHaveLength(1);

    b.clock.step(61 * 60_000);
    await b.disruptOnce();
    await b.until('the expired NodeClaim gone', () => b.state.nodeClaim('old') === undefined);
    const disrupted = await b.metrics.registry.getSingleMetricAsString('karpenter_nodeclaims_disrupted_total');
    // Expiration is not consolidation: no policy; no terminationGracePeriod: graceful.
    expect(disrupted).toMatch(
      /reason="expired",nodepool="default",capacity_type="[a-z-]*",consolidation_policy="",termination_mode="graceful"} 1/,
    );
  });

  it('removes a disrupted taint no command stands behind (a restart mid-command), and leaves unmanaged nodes alone', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    await setUp(
      b,
      nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never' }),
      [claim('a', 'm-2')],
      deployment('web', 1, '1'),
    );
    const managed = b.state.stateNodes().find((n) => n.managed && n.node)?.name ?? '';
    const disrupted = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };
    await b.kube.patch(Resources.Node, { name: managed }, { type: 'merge', body: { spec: { taints: [disrupted] } } });
    await b.kube.create(Resources.Node, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'unmanaged' },
      spec: { taints: [disrupted] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    await b.until('taints seen', () => b.state.stateNodes().filter((n) => n.node?.spec?.taints?.length).length === 2);

    await b.disruptOnce();
    const taintsOf = async (name: string) => (await b.kube.get<V1Node>(Resources.Node, { name })).spec?.taints ?? [];
    expect(await taintsOf(managed)).toEqual([]);
    expect(await taintsOf('unmanaged')).toEqual([disrupted]);
  });
});
