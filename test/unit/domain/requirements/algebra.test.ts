import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  AllowUndefinedWellKnownLabels,
  isRestrictedLabel,
  Requirement,
  RequirementError,
  type RequirementOperator,
  Requirements,
  restrictedLabelError,
} from '../../../../src/domain/requirements/index.js';

const key = 'example.com/size';
const universe = ['A', 'B', 'c', '', '-1', ...Array.from({ length: 13 }, (_, i) => String(i))];

const requirementArb: fc.Arbitrary<Requirement> = fc.oneof(
  fc
    .record({
      op: fc.constantFrom<RequirementOperator>('In', 'NotIn'),
      values: fc.uniqueArray(fc.constantFrom(...universe), { maxLength: 4 }),
    })
    .map(({ op, values }) => Requirement.create(key, op, values)),
  fc.constantFrom<RequirementOperator>('Exists', 'DoesNotExist').map((op) => Requirement.create(key, op)),
  fc
    .record({ op: fc.constantFrom<RequirementOperator>('Gt', 'Lt', 'Gte', 'Lte'), n: fc.integer({ min: -1, max: 12 }) })
    .map(({ op, n }) => Requirement.create(key, op, [String(n)])),
);
// Chains of intersections reach the mixed shapes (NotIn with bounds, bounded ranges).
const composedArb = fc.array(requirementArb, { minLength: 1, maxLength: 3 }).map((rs) => rs.reduce((a, b) => a.intersection(b)));

const admitted = (r: Requirement): string[] => universe.filter((v) => r.has(v));

describe('requirement algebra properties', () => {
  it('intersection is commutative', () => {
    fc.assert(
      fc.property(composedArb, composedArb, (a, b) => {
        expect(admitted(a.intersection(b))).toEqual(admitted(b.intersection(a)));
        expect(a.intersection(b).operator()).toBe(b.intersection(a).operator());
        expect(a.hasIntersection(b)).toBe(b.hasIntersection(a));
      }),
      { numRuns: 1000 },
    );
  });

  it('intersection is associative', () => {
    fc.assert(
      fc.property(composedArb, composedArb, composedArb, (a, b, c) => {
        expect(admitted(a.intersection(b).intersection(c))).toEqual(admitted(a.intersection(b.intersection(c))));
      }),
      { numRuns: 1000 },
    );
  });

  it('a value satisfies the intersection iff it satisfies both', () => {
    fc.assert(
      fc.property(composedArb, composedArb, fc.constantFrom(...universe), (a, b, v) => {
        expect(a.intersection(b).has(v)).toBe(a.has(v) && b.has(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('hasIntersection agrees with the intersection; exactly when a side lists its values', () => {
    fc.assert(
      fc.property(composedArb, composedArb, (a, b) => {
        const common = admitted(a).filter((v) => b.has(v));
        if (!a.hasIntersection(b)) expect(common).toEqual([]);
        if (!a.complement || !b.complement) expect(a.hasIntersection(b)).toBe(common.length > 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('compatible(a, b) ⇔ non-empty intersection (or both sides only exclude) for one key', () => {
    const negative = (r: Requirement): boolean => r.operator() === 'NotIn' || r.operator() === 'DoesNotExist';
    fc.assert(
      fc.property(composedArb, composedArb, (a, b) => {
        const ra = new Requirements([a]);
        const rb = new Requirements([b]);
        const expected = a.hasIntersection(b) || (negative(a) && negative(b));
        expect(ra.isCompatible(rb)).toBe(expected);
        expect(rb.isCompatible(ra)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('Requirements.add intersects on the same key', () => {
    fc.assert(
      fc.property(composedArb, composedArb, (a, b) => {
        expect(admitted(new Requirements([a, b]).get(key))).toEqual(admitted(a.intersection(b)));
      }),
    );
  });
});

describe('Requirement', () => {
  it('canonicalises Gt/Lt to inclusive bounds and prints as upstream', () => {
    const reqs = new Requirements([
      Requirement.create('exists', 'Exists'),
      Requirement.create('doesNotExist', 'DoesNotExist'),
      Requirement.create('inA', 'In', ['A']),
      Requirement.create('inAB', 'In', ['B', 'A']),
      Requirement.create('notIn12', 'NotIn', ['1', '2']),
      Requirement.create('greaterThan9', 'Gt', ['9']),
      Requirement.create('lessThan1', 'Lt', ['1']),
    ]);
    expect(reqs.toString()).toBe(
      'doesNotExist DoesNotExist, exists Exists, greaterThan9 Exists >=10, inA In [A], inAB In [A B], lessThan1 Exists <=0, notIn12 NotIn [1 2]',
    );
    expect(reqs.toSpecs()).toEqual(
      expect.arrayContaining([
        { key: 'exists', operator: 'Exists' },
        { key: 'doesNotExist', operator: 'DoesNotExist' },
        { key: 'inAB', operator: 'In', values: ['A', 'B'] },
        { key: 'notIn12', operator: 'NotIn', values: ['1', '2'] },
        { key: 'greaterThan9', operator: 'Gte', values: ['10'] },
        { key: 'lessThan1', operator: 'Lte', values: ['0'] },
      ]),
    );
  });

  it('keeps minValues (the larger one on intersection) and prints both bounds as Gte and Lte', () => {
    const r = Requirement.create('cpu', 'Gte', ['8'], 2).intersection(Requirement.create('cpu', 'Lte', ['16'], 3));
    expect(r.toSpecs()).toEqual([
      { key: 'cpu', operator: 'Gte', values: ['8'], minValues: 3 },
      { key: 'cpu', operator: 'Lte', values: ['16'], minValues: 3 },
    ]);
    expect(r.toString()).toBe('cpu Exists >=8 <=16 minValues 3');
    expect(new Requirements([r]).hasMinValues()).toBe(true);
  });

  it('treats Gt of the largest integer as matching nothing, and disjoint bounds as DoesNotExist', () => {
    expect(Requirement.create('n', 'Gt', [String(Number.MAX_SAFE_INTEGER)]).operator()).toBe('DoesNotExist');
    expect(
      Requirement.create('n', 'Gt', ['5'])
        .intersection(Requirement.create('n', 'Lt', ['3']))
        .operator(),
    ).toBe('DoesNotExist');
  });

  it('only admits integers within bounds', () => {
    const r = Requirement.create('n', 'Gt', ['1']);
    expect(r.has('2')).toBe(true);
    expect(r.has('1')).toBe(false);
    expect(r.has('two')).toBe(false);
  });

  it('normalises beta label keys to their GA names', () => {
    const reqs = new Requirements([Requirement.create('failure-domain.beta.kubernetes.io/zone', 'In', ['test'])]);
    expect(reqs.has('failure-domain.beta.kubernetes.io/zone')).toBe(false);
    expect(reqs.get('topology.kubernetes.io/zone').has('test')).toBe(true);
    expect(Requirement.create('beta.kubernetes.io/arch', 'In', ['arm64']).key).toBe('kubernetes.io/arch');
  });

  it('rejects unknown operators and non-integer bounds, naming the key and what is accepted', () => {
    expect(() => Requirement.create('k', 'Foo' as RequirementOperator)).toThrow(/operator "Foo" is not supported; accepted: In, NotIn/);
    expect(() => Requirement.create('k', 'Gt', ['a'])).toThrow(RequirementError);
    expect(() => Requirement.create('k', 'Lt', ['1', '2'])).toThrow(/key k: operator Lt takes exactly one integer/);
  });

  it('picks a deterministic value the requirement admits', () => {
    expect(Requirement.create('k', 'In', ['b', 'a']).any()).toBe('a');
    expect(Requirement.create('k', 'NotIn', ['0', '1']).any()).toBe('2');
    expect(Requirement.create('k', 'Gt', ['4']).any()).toBe('5');
    expect(Requirement.create('k', 'DoesNotExist').any()).toBe('');
  });
});

describe('Requirements', () => {
  it('gets an undefined key as Exists and lists keys', () => {
    const reqs = Requirements.fromLabels({ a: '1', b: '2' });
    expect(reqs.keys().sort()).toEqual(['a', 'b']);
    expect(reqs.get('c').operator()).toBe('Exists');
    expect(reqs.size).toBe(2);
  });

  it('builds NodePool specs and intersects them with pod requirements into a NodeClaim', () => {
    const nodePool = Requirements.fromSpecs([
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-par-a', 'eu-west-par-b'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      { key: 'karpenter-eu.io/instance-cpu', operator: 'Gt', values: ['3'], minValues: 2 },
    ]);
    const pod = Requirements.fromLabels({ 'topology.kubernetes.io/zone': 'eu-west-par-b', team: 'ml' });
    expect(nodePool.compatible(pod, AllowUndefinedWellKnownLabels)?.message).toBe('label "team" does not have known values');
    const claim = nodePool.intersection(new Requirements([Requirement.create('topology.kubernetes.io/zone', 'In', ['eu-west-par-b'])]));
    expect(claim.get('topology.kubernetes.io/zone').values()).toEqual(['eu-west-par-b']);
    expect(claim.get('karpenter-eu.io/instance-cpu').minValues).toBe(2);
    expect(nodePool.get('topology.kubernetes.io/zone').values()).toHaveLength(2);
  });

  it('derives custom node labels from single-valued requirements, skipping well-known and restricted ones', () => {
    const reqs = Requirements.fromSpecs([
      { key: 'team', operator: 'In', values: ['ml'] },
      { key: 'tier', operator: 'Gt', values: ['2'] },
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
      { key: 'kubernetes.io/hostname', operator: 'In', values: ['h'] },
      { key: 'gone', operator: 'DoesNotExist' },
    ]);
    expect(reqs.labels()).toEqual({ team: 'ml', tier: '3' });
  });

  it('matches node labels (absent labels satisfy only NotIn and DoesNotExist)', () => {
    const reqs = Requirements.fromSpecs([
      { key: 'zone', operator: 'In', values: ['a'] },
      { key: 'gpu', operator: 'DoesNotExist' },
      { key: 'team', operator: 'NotIn', values: ['x'] },
    ]);
    expect(reqs.matchesLabels({ zone: 'a' })).toBe(true);
    expect(reqs.matchesLabels({ zone: 'a', team: 'x' })).toBe(false);
    expect(reqs.matchesLabels({ zone: 'a', gpu: 'l4' })).toBe(false);
    expect(reqs.matchesLabels({})).toBe(false);
    expect(Requirements.fromSpecs([{ key: 'n', operator: 'Gt', values: ['1'] }]).matchesLabels({})).toBe(false);
  });
});

describe('restricted labels (HEAD rules)', () => {
  it.each([
    ['karpenter.sh/nodepool', false],
    ['karpenter.sh/capacity-type', false],
    ['karpenter.sh/custom', true],
    ['sub.karpenter.sh/custom', true],
    ['notkarpenter.sh/custom', false],
    ['kubernetes.io/hostname', true],
    ['kubernetes.io/arch', false],
    ['node-role.kubernetes.io/worker', false],
    ['karpenter-eu.io/instance-family', false],
    ['karpenter-eu.io/other', true],
    ['team', false],
  ])('%s restricted: %s', (label, restricted) => {
    expect(isRestrictedLabel(label)).toBe(restricted);
  });

  it('explains the rule with the well-known labels and restricted domains', () => {
    expect(restrictedLabelError('karpenter.sh/custom')?.message).toMatch(
      /^using label karpenter.sh\/custom is not allowed as it might interfere with the internal provisioning logic; specify a well known label: \[.*karpenter.sh\/nodepool.*\], or a custom label that does not use a restricted domain: \[karpenter-eu.io karpenter.sh\]$/,
    );
  });
});
