import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  AllowUndefinedWellKnownLabels,
  Requirement,
  type RequirementOperator,
  Requirements,
} from '../../../../src/domain/requirements/index.js';

// The upstream matrix (kubernetes-sigs/karpenter pkg/scheduling/requirements_test.go), one row per fixture:
// character j of a row says whether row.Compatible(columns[j]) succeeds.
const matrix = JSON.parse(readFileSync(new URL('./compatibility-matrix.json', import.meta.url), 'utf8')) as {
  columns: string[];
  allowUndefinedWellKnown: Record<string, string>;
  strict: Record<string, string>;
};

const zone = 'topology.kubernetes.io/zone';
const fixtureSpecs: Record<string, [RequirementOperator, string[]] | undefined> = {
  unconstrained: undefined,
  exists: ['Exists', []],
  doesNotExist: ['DoesNotExist', []],
  inA: ['In', ['A']],
  inB: ['In', ['B']],
  inAB: ['In', ['A', 'B']],
  notInA: ['NotIn', ['A']],
  in1: ['In', ['1']],
  in9: ['In', ['9']],
  in19: ['In', ['1', '9']],
  notIn12: ['NotIn', ['1', '2']],
  greaterThan1: ['Gt', ['1']],
  greaterThan9: ['Gt', ['9']],
  lessThan1: ['Lt', ['1']],
  lessThan9: ['Lt', ['9']],
};

function fixture(name: string): Requirements {
  const spec = fixtureSpecs[name];
  return spec ? new Requirements([Requirement.create(zone, spec[0], spec[1])]) : new Requirements();
}

const pairs = matrix.columns.flatMap((row, i) =>
  matrix.columns.map((column, j) => ({
    row,
    column,
    wellKnown: matrix.allowUndefinedWellKnown[row]?.[j] === '1',
    strict: matrix.strict[row]?.[j] === '1',
    i,
  })),
);

describe('upstream requirements compatibility matrix', () => {
  it('covers all 15 × 15 pairs in both modes', () => {
    expect(pairs).toHaveLength(225);
    expect(Object.keys(fixtureSpecs)).toEqual(matrix.columns);
  });

  it.each(pairs)('$row.compatible($column, allowUndefinedWellKnown) is $wellKnown', ({ row, column, wellKnown }) => {
    expect(fixture(row).isCompatible(fixture(column), AllowUndefinedWellKnownLabels)).toBe(wellKnown);
  });

  it.each(pairs)('$row.compatible($column) is $strict', ({ row, column, strict }) => {
    expect(fixture(row).isCompatible(fixture(column))).toBe(strict);
  });

  // Intersects ignores keys defined on one side only, so it agrees with the well-known mode everywhere.
  it.each(pairs)('$row.intersects($column) passes iff $wellKnown', ({ row, column, wellKnown }) => {
    expect(fixture(row).intersects(fixture(column)) === undefined).toBe(wellKnown);
  });
});

describe('compatibility error messages', () => {
  it.each([
    ['zone', 'topology.kubernetes.io/zone'],
    ['region', 'topology.kubernetes.io/region'],
    ['nodepool', 'karpenter.sh/nodepool'],
    ['instance-type', 'node.kubernetes.io/instance-type'],
    ['arch', 'kubernetes.io/arch'],
    ['capacity-type', 'karpenter.sh/capacity-type'],
    ['topology.kubernetesio/zone', 'topology.kubernetes.io/zone'],
    ['node.io/zone', 'topology.kubernetes.io/zone'],
    ['topology.kubernetes.io/regio', 'topology.kubernetes.io/region'],
    ['node.kubernetes.io/region', 'topology.kubernetes.io/region'],
    ['karpenter/nodepool', 'karpenter.sh/nodepool'],
  ])('hints that %s is a typo of %s', (bad, wellKnown) => {
    const incoming = new Requirements([Requirement.create(bad, 'Exists')]);
    expect(new Requirements().compatible(incoming, AllowUndefinedWellKnownLabels)?.message).toBe(
      `label "${bad}" does not have known values (typo of "${wellKnown}"?)`,
    );
  });

  it('reports an unknown custom label without a hint', () => {
    const incoming = new Requirements([Requirement.create('deployment', 'Exists')]);
    expect(new Requirements().compatible(incoming)?.message).toBe('label "deployment" does not have known values');
  });

  it('names the key and both requirements when values do not intersect', () => {
    const existing = new Requirements([Requirement.create(zone, 'In', ['A'])]);
    const incoming = new Requirements([Requirement.create(zone, 'In', ['B'])]);
    expect(existing.compatible(incoming)?.message).toBe(`key ${zone}, ${zone} In [B] not in ${zone} In [A]`);
  });
});
