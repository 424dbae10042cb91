import { describe, expect, it } from 'vitest';
import type { V1Node, V1Taint } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../../src/apis/index.js';
import {
  DefaultLifecycleTimeouts,
  initializationBlockers,
  lifecyclePhase,
  livenessTimeout,
  nextLivenessDeadline,
  registrationPatch,
  setCondition,
} from '../../../../src/domain/provisioning/index.js';

const t0 = Date.UTC(2026, 0, 1);
const iso = (ms: number): string => new Date(ms).toISOString();
const cond = (type: string, status: 'True' | 'False', at = t0) => ({
  type,
  status,
  reason: type,
  message: '',
  lastTransitionTime: iso(at),
});

function claim(conditions: ReturnType<typeof cond>[] = [], extra: Partial<NodeClaim['spec']> = {}, deleting = false): NodeClaim {
  return {
    metadata: {
      name: 'default-abc',
      creationTimestamp: iso(t0) as never,
      labels: { 'karpenter.sh/nodepool': 'default' },
      annotations: { a: '1' },
      ...(deleting ? { deletionTimestamp: iso(t0) as never } : {}),
    },
    spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [], ...extra },
    status: { conditions },
  } as NodeClaim;
}

describe('lifecycle phase', () => {
  it.each([
    { conditions: [], deleting: false, phase: 'launching' },
    { conditions: [cond('Launched', 'False')], deleting: false, phase: 'launching' },
    { conditions: [cond('Launched', 'True')], deleting: false, phase: 'registering' },
    { conditions: [cond('Launched', 'True'), cond('Registered', 'True')], deleting: false, phase: 'initializing' },
    {
      conditions: [cond('Launched', 'True'), cond('Registered', 'True'), cond('Initialized', 'True')],
      deleting: false,
      phase: 'initialized',
    },
    { conditions: [cond('Launched', 'True')], deleting: true, phase: 'deleting' },
  ])('$phase', ({ conditions, deleting, phase }) => {
    expect(lifecyclePhase(claim(conditions, {}, deleting))).toBe(phase);
  });
});

describe('liveness timeouts', () => {
  const { launchMs, registrationMs } = DefaultLifecycleTimeouts;
  it.each([
    { c: claim(), at: t0 + launchMs - 1, expected: undefined },
    { c: claim(), at: t0 + launchMs, expected: 'launch_timeout' },
    { c: claim([cond('Launched', 'True', t0 + 60_000)]), at: t0 + registrationMs, expected: undefined },
    { c: claim([cond('Launched', 'True', t0 + 60_000)]), at: t0 + 60_000 + registrationMs, expected: 'registration_timeout' },
    { c: claim([cond('Launched', 'True'), cond('Registered', 'True')]), at: t0 + 10 * registrationMs, expected: undefined },
  ])('at +$at ms → $expected', ({ c, at, expected }) => {
    expect(livenessTimeout(c, at, DefaultLifecycleTimeouts)?.reason).toBe(expected);
  });

  it('gives the deadline the controller requeues at', () => {
    expect(nextLivenessDeadline(claim(), DefaultLifecycleTimeouts)).toBe(t0 + launchMs);
    expect(nextLivenessDeadline(claim([cond('Launched', 'True', t0 + 5)]), DefaultLifecycleTimeouts)).toBe(t0 + 5 + registrationMs);
    expect(nextLivenessDeadline(claim([cond('Launched', 'True'), cond('Registered', 'True')]), DefaultLifecycleTimeouts)).toBeUndefined();
  });
});

describe('setCondition', () => {
  it('moves lastTransitionTime only when the status changes', () => {
    const first = setCondition(undefined, { type: 'Launched', status: 'False', reason: 'LaunchFailed' }, t0);
    const again = setCondition(first, { type: 'Launched', status: 'False', reason: 'LaunchFailed', message: 'still' }, t0 + 1000);
    expect(again[0]?.lastTransitionTime).toBe(iso(t0));
    expect(again[0]?.message).toBe('still');
    const flipped = setCondition(again, { type: 'Launched', status: 'True' }, t0 + 2000);
    expect(flipped).toHaveLength(1);
    expect(flipped[0]).toMatchObject({ status: 'True', reason: 'Launched', lastTransitionTime: iso(t0 + 2000) });
  });
});

function node(
  taints: V1Taint[],
  ready: boolean,
  labels: Record<string, string> = {},
  allocatable: Record<string, string> = { cpu: '2' },
): V1Node {
  return {
    metadata: { name: 'node-1', labels },
    spec: { providerID: 'fake:///a/i-1', taints },
    status: { allocatable, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

describe('registration patch', () => {
  it('adds labels, finalizer, claim and startup taints on first registration and drops the unregistered taint', () => {
    const c = claim([], {
      taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'cni', effect: 'NoSchedule' }],
    });
    const p = registrationPatch(
      node(
        [
          { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
          { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        ],
        false,
      ),
      c,
    );
    expect(p.changed).toBe(true);
    expect(p.labels).toMatchObject({ 'karpenter.sh/nodepool': 'default', 'karpenter.sh/registered': 'true' });
    expect(p.annotations).toEqual({ a: '1' });
    expect(p.finalizers).toEqual(['karpenter.sh/termination']);
    expect(p.taints.map((t) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'team', 'cni']);
  });

  it('leaves taints alone after the first registration and reports no change when in sync', () => {
    const c = claim([], { startupTaints: [{ key: 'cni', effect: 'NoSchedule' }] });
    const n = node([], true, { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/registered': 'true' });
    n.metadata = { ...n.metadata, annotations: { a: '1' }, finalizers: ['karpenter.sh/termination'] };
    expect(registrationPatch(n, c).changed).toBe(false);
    expect(registrationPatch(n, c).taints).toEqual([]);
  });
});

describe('initialization blockers', () => {
  it.each([
    { n: node([], true), spec: {}, blockers: [] },
    { n: node([], false), spec: {}, blockers: ['node is not ready'] },
    {
      n: node([{ key: 'cni', effect: 'NoSchedule' }], true),
      spec: { startupTaints: [{ key: 'cni', effect: 'NoSchedule' as const }] },
      blockers: ['startup taint cni:NoSchedule is still present'],
    },
    {
      n: node([{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }], true),
      spec: {},
      blockers: ['taint karpenter.sh/unregistered:NoExecute is still present'],
    },
    {
      n: node([], true),
      spec: { resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' } } },
      blockers: ['extended resource nvidia.com/gpu is not registered'],
    },
    {
      n: node([], true, {}, { cpu: '2', 'nvidia.com/gpu': '1' }),
      spec: { resources: { requests: { 'nvidia.com/gpu': '1' } } },
      blockers: [],
    },
  ])('$blockers', ({ n, spec, blockers }) => {
    expect(initializationBlockers(n, claim([], spec as Partial<NodeClaim['spec']>))).toEqual(blockers);
  });
});
