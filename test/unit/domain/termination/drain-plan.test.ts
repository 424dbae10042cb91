import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { V1Pod } from '@kubernetes/client-node';
import { AnnotationDoNotDisrupt } from '../../../../src/apis/v1/labels.js';
import { drainGroupOf, DrainGroups, forcedGracePeriodSeconds, holdsDrain, planDrain } from '../../../../src/domain/termination/index.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();

interface PodShape {
  name: string;
  daemon?: boolean;
  critical?: boolean;
  phase?: string;
  deletedAt?: number;
  doNotDisrupt?: string;
  mirror?: boolean;
  toleratesDisrupted?: boolean;
  grace?: number;
}

function pod(shape: PodShape): V1Pod {
  return {
    metadata: {
      name: shape.name,
      namespace: 'default',
      uid: `uid-${shape.name}`,
      ...(shape.deletedAt !== undefined ? { deletionTimestamp: iso(shape.deletedAt) as unknown as Date } : {}),
      annotations: {
        ...(shape.doNotDisrupt !== undefined ? { [AnnotationDoNotDisrupt]: shape.doNotDisrupt } : {}),
        ...(shape.mirror ? { 'kubernetes.io/config.mirror': 'abc' } : {}),
      },
      ...(shape.daemon ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'ds' }] } : {}),
    },
    spec: {
      containers: [{ name: 'c' }],
      ...(shape.critical ? { priorityClassName: 'system-node-critical' } : {}),
      ...(shape.toleratesDisrupted ? { tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists' }] } : {}),
      ...(shape.grace !== undefined ? { terminationGracePeriodSeconds: shape.grace } : {}),
    },
    status: { phase: shape.phase ?? 'Running', startTime: iso(now - 3_600_000) as unknown as Date },
  };
}

const names = (refs: Array<{ name: string }>): string[] => refs.map((r) => r.name).sort();

describe('drain groups', () => {
  it.each([
    [{ name: 'a' }, 'non-critical'],
    [{ name: 'a', daemon: true }, 'non-critical-daemonset'],
    [{ name: 'a', critical: true }, 'critical'],
    [{ name: 'a', critical: true, daemon: true }, 'critical-daemonset'],
  ] as const)('%o is in group %s', (shape, group) => {
    expect(drainGroupOf(pod(shape))).toBe(group);
  });
});

describe('which pods hold the drain', () => {
  it.each([
    ['a running pod', { name: 'a' }, true],
    ['a succeeded pod', { name: 'a', phase: 'Succeeded' }, false],
    ['a failed pod', { name: 'a', phase: 'Failed' }, false],
    ['a mirror (static) pod', { name: 'a', mirror: true }, false],
    ['a pod tolerating the disrupted taint', { name: 'a', toleratesDisrupted: true }, false],
    ['a pod terminating for 30 s', { name: 'a', deletedAt: now - 30_000 }, true],
    ['a pod stuck terminating for 2 min', { name: 'a', deletedAt: now - 120_000 }, false],
  ] as const)('%s: %s', (_what, shape, holds) => {
    expect(holdsDrain(pod(shape), now)).toBe(holds);
  });
});

describe('planDrain', () => {
  it('evicts only the first non-empty group, in upstream order', () => {
    const pods = [
      pod({ name: 'app' }),
      pod({ name: 'ds', daemon: true }),
      pod({ name: 'crit', critical: true }),
      pod({ name: 'critds', critical: true, daemon: true }),
    ];
    const plan = planDrain({ pods, now });
    expect(plan.group).toBe('non-critical');
    expect(names(plan.evict)).toEqual(['app']);
    expect(plan.drained).toBe(false);
  });

  it('moves to daemonsets once the non-critical pods are gone', () => {
    const plan = planDrain({ pods: [pod({ name: 'ds', daemon: true }), pod({ name: 'crit', critical: true })], now });
    expect(plan.group).toBe('non-critical-daemonset');
    expect(names(plan.evict)).toEqual(['ds']);
  });

  it('waits for terminating pods of the group instead of evicting them again', () => {
    const plan = planDrain({ pods: [pod({ name: 'going', deletedAt: now - 5_000 }), pod({ name: 'ds', daemon: true })], now });
    expect(plan.evict).toEqual([]);
    expect(names(plan.waitingFor)).toEqual(['going']);
    expect(plan.group).toBe('non-critical');
  });

  it('does not evict do-not-disrupt pods but waits for them', () => {
    const plan = planDrain({ pods: [pod({ name: 'precious', doNotDisrupt: 'true' }), pod({ name: 'app' })], now });
    expect(names(plan.evict)).toEqual(['app']);
    expect(names(plan.waitingFor)).toEqual(['precious']);
  });

  it('an expired do-not-disrupt duration no longer protects the pod', () => {
    const plan = planDrain({ pods: [pod({ name: 'was-precious', doNotDisrupt: '5m' })], now });
    expect(names(plan.evict)).toEqual(['was-precious']);
  });

  it('is drained when only terminal, mirror and tolerating pods remain', () => {
    const plan = planDrain({
      pods: [pod({ name: 'done', phase: 'Succeeded' }), pod({ name: 'm', mirror: true }), pod({ name: 't', toleratesDisrupted: true })],
      now,
    });
    expect(plan).toEqual({ evict: [], forceDelete: [], waitingFor: [], drained: true });
  });

  it('force-deletes every holding pod once the deadline minus its grace period has passed', () => {
    const deadline = now + 10_000;
    const pods = [pod({ name: 'precious', doNotDisrupt: 'true', grace: 30 }), pod({ name: 'crit', critical: true, grace: 5 })];
    const plan = planDrain({ pods, now, terminationDeadline: deadline });
    expect(names(plan.forceDelete)).toEqual(['precious']);
    expect(plan.forceDelete[0]?.gracePeriodSeconds).toBe(10);
    expect(plan.evict).toEqual([]);
  });

  it('does not force before the deadline window opens', () => {
    const plan = planDrain({ pods: [pod({ name: 'precious', doNotDisrupt: 'true', grace: 30 })], now, terminationDeadline: now + 60_000 });
    expect(plan.forceDelete).toEqual([]);
    expect(names(plan.waitingFor)).toEqual(['precious']);
  });

  it('gives a forced deletion at least one second', () => {
    expect(forcedGracePeriodSeconds(pod({ name: 'a', grace: 30 }), now, now - 5_000)).toBe(1);
  });
});

const shapeArb: fc.Arbitrary<PodShape> = fc.record({
  name: fc.constant(''),
  daemon: fc.boolean(),
  critical: fc.boolean(),
  phase: fc.constantFrom('Running', 'Pending', 'Succeeded', 'Failed'),
  deletedAt: fc.option(fc.integer({ min: now - 300_000, max: now }), { nil: undefined }),
  doNotDisrupt: fc.option(fc.constantFrom('true', '5m', '2h'), { nil: undefined }),
  mirror: fc.boolean(),
  toleratesDisrupted: fc.boolean(),
  grace: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
});
const podsArb = fc.array(shapeArb, { maxLength: 12 }).map((shapes) => shapes.map((s, i) => pod({ ...s, name: `p${i}` })));

describe('planDrain properties', () => {
  it('never evicts a pod outside the earliest group still holding the node', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const plan = planDrain({ pods, now });
        const holding = pods.filter((p) => holdsDrain(p, now));
        const earliest = DrainGroups.find((g) => holding.some((p) => drainGroupOf(p) === g));
        for (const ref of plan.evict) expect(drainGroupOf(pods.find((p) => p.metadata?.name === ref.name) as V1Pod)).toBe(earliest);
      }),
    );
  });

  it('without a deadline never deletes, and never evicts a terminating or do-not-disrupt pod', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const plan = planDrain({ pods, now });
        expect(plan.forceDelete).toEqual([]);
        for (const ref of plan.evict) {
          const p = pods.find((x) => x.metadata?.name === ref.name) as V1Pod;
          expect(p.metadata?.deletionTimestamp).toBeUndefined();
          expect(p.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true').toBe(false);
        }
      }),
    );
  });

  it('is drained exactly when no pod holds the node', () => {
    fc.assert(
      fc.property(podsArb, fc.option(fc.integer({ min: now - 60_000, max: now + 600_000 }), { nil: undefined }), (pods, deadline) => {
        const plan = planDrain({ pods, now, ...(deadline !== undefined ? { terminationDeadline: deadline } : {}) });
        expect(plan.drained).toBe(!pods.some((p) => holdsDrain(p, now)));
        if (!plan.drained) expect(plan.evict.length + plan.forceDelete.length + plan.waitingFor.length).toBeGreaterThan(0);
      }),
    );
  });

  it('past the deadline, every holding pod is forced or already ends by it', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const plan = planDrain({ pods, now, terminationDeadline: now });
        expect(plan.evict).toEqual([]);
        for (const ref of plan.forceDelete) expect(ref.gracePeriodSeconds).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});
