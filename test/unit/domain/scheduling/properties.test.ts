import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solve } from '../../../../src/domain/scheduling/index.js';
import type { SchedulingInput, SchedulingResult } from '../../../../src/domain/scheduling/types.js';
import { podSchedulingRequests } from '../../../../src/domain/pods/index.js';
import { instanceType, nodePool, pod } from './helpers.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';
const types = [
  instanceType('t-1', 1, 2, 0.02),
  instanceType('t-2', 2, 4, 0.045),
  instanceType('t-4', 4, 8, 0.08),
  instanceType('t-8', 8, 32, 0.2),
];

type Kind = 'plain' | 'spread' | 'anti';
const podArb = fc.record({
  kind: fc.constantFrom<Kind>('plain', 'plain', 'spread', 'anti'),
  cpu: fc.constantFrom('100m', '250m', '500m', '1', '1500m', '3'),
  mem: fc.constantFrom('128Mi', '512Mi', '1Gi', '3Gi', '6Gi'),
});

function makePods(specs: { kind: Kind; cpu: string; mem: string }[]) {
  return specs.map((s, i) => {
    if (s.kind === 'spread')
      return pod(
        `s${i}`,
        s.cpu,
        s.mem,
        {
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: zone, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } },
          ],
        },
        { app: 'spread' },
      );
    if (s.kind === 'anti')
      return pod(
        `a${i}`,
        s.cpu,
        s.mem,
        {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: hostname, labelSelector: { matchLabels: { app: 'anti' } } }],
            },
          },
        },
        { app: 'anti' },
      );
    return pod(`p${i}`, s.cpu, s.mem);
  });
}

/** Checks a plan against the input: fit, limits, spread, anti-affinity; returns the violations. */
function violations(input: SchedulingInput, result: SchedulingResult): string[] {
  const out: string[] = [];
  const byKey = new Map(input.pods.map((p) => [`default/${p.metadata?.name}`, p]));
  const capacityUsed: Record<string, number> = {};
  const perZone: Record<string, number> = {};
  for (const claim of result.newNodeClaims) {
    const type = types.find((t) => t.name === claim.instanceType);
    if (!type) return [`unknown type ${claim.instanceType}`];
    const used: Record<string, number> = {};
    let anti = 0;
    for (const key of claim.pods) {
      const p = byKey.get(key);
      for (const [name, v] of Object.entries(podSchedulingRequests(p ?? {}))) used[name] = (used[name] ?? 0) + v;
      if (p?.metadata?.labels?.app === 'anti') anti++;
      if (p?.metadata?.labels?.app === 'spread') perZone[claim.zone] = (perZone[claim.zone] ?? 0) + 1;
    }
    for (const [name, v] of Object.entries(used))
      if (v > (type.allocatable[name] ?? 0)) out.push(`${claim.hostname}: ${name} ${v} > ${type.allocatable[name]}`);
    if (anti > 1) out.push(`${claim.hostname}: ${anti} anti-affinity pods`);
    for (const [name, v] of Object.entries(type.capacity)) capacityUsed[name] = (capacityUsed[name] ?? 0) + v;
  }
  for (const [name, limit] of Object.entries(input.nodePools[0]?.limits ?? {})) {
    const used = name === 'nodes' ? result.newNodeClaims.length : (capacityUsed[name] ?? 0);
    if (used > limit) out.push(`limit ${name}: ${used} > ${limit}`);
  }
  const counts = ['z-a', 'z-b', 'z-c'].map((z) => perZone[z] ?? 0);
  if (Math.max(...counts) - Math.min(...counts) > 1) out.push(`zone spread ${counts.join('/')}`);
  const placed = result.newNodeClaims.reduce((n, c) => n + c.pods.length, 0) + result.unschedulable.length;
  if (placed !== input.pods.length) out.push(`pods accounted ${placed} of ${input.pods.length}`);
  return out;
}

const inputArb = fc.record({
  pods: fc.array(podArb, { minLength: 1, maxLength: 40 }),
  cpuLimit: fc.option(fc.integer({ min: 4, max: 40 }), { nil: undefined }),
  nodes: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
});

function inputOf(arb: {
  pods: { kind: Kind; cpu: string; mem: string }[];
  cpuLimit: number | undefined;
  nodes: number | undefined;
}): SchedulingInput {
  const limits: Record<string, number> = {};
  if (arb.cpuLimit !== undefined) limits.cpu = arb.cpuLimit * 1000;
  if (arb.nodes !== undefined) limits.nodes = arb.nodes;
  return { pods: makePods(arb.pods), nodePools: [nodePool('default', types, { limits })] };
}

describe('solve: properties', () => {
  it('never places a pod where it does not fit, never exceeds limits, keeps spread and anti-affinity', () => {
    fc.assert(
      fc.property(inputArb, (arb) => {
        const input = inputOf(arb);
        expect(violations(input, solve(input))).toEqual([]);
        expect(violations(input, solve({ ...input, options: { optimize: false } }))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('costs no more than first-fit-decreasing and places at least as many pods', () => {
    fc.assert(
      fc.property(inputArb, (arb) => {
        const input = inputOf(arb);
        const plan = solve(input);
        const ffd = solve({ ...input, options: { optimize: false } });
        expect(plan.unschedulable.length).toBeLessThanOrEqual(ffd.unschedulable.length);
        if (plan.unschedulable.length === ffd.unschedulable.length)
          expect(plan.totalPricePerHour).toBeLessThanOrEqual(ffd.totalPricePerHour + 1e-9);
      }),
      { numRuns: 150 },
    );
  });

  it('places every pod when nothing limits it', () => {
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 40 }), (specs) => {
        expect(solve({ pods: makePods(specs), nodePools: [nodePool('default', types)] }).unschedulable).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
