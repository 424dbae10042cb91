import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../../../src/apis/validation/index.js';
import { nodeClaimArb, nodePoolArb, v109NodePoolArb } from './arbitraries.js';
import { admissionErrors, oracle, ours } from './upstream-oracle.js';

const runs = { numRuns: 400, seed: 20250101 };

describe('generated objects: upstream HEAD CRD and ours give the same verdict', () => {
  const upstreamPool = oracle.nodePoolHead();
  const ourPool = ours.nodePool();
  const upstreamClaim = oracle.nodeClaimHead();
  const ourClaim = ours.nodeClaim();

  it('NodePools on create', () => {
    const verdicts = { admitted: 0, rejected: 0 };
    fc.assert(
      fc.property(nodePoolArb, (object) => {
        const ourErrors = admissionErrors(ourPool, object);
        const verdict = ourErrors.length === 0;
        verdicts[verdict ? 'admitted' : 'rejected']++;
        expect(verdict, formatFieldErrors(ourErrors)).toBe(admissionErrors(upstreamPool, object).length === 0);
      }),
      { ...runs, numRuns: 1000 },
    );
    // The generator must exercise both verdicts to mean anything.
    expect(verdicts.admitted).toBeGreaterThan(50);
    expect(verdicts.rejected).toBeGreaterThan(50);
  });

  it('NodePools on update (transition rules)', () => {
    fc.assert(
      fc.property(nodePoolArb, nodePoolArb, (object, old) => {
        const ourErrors = admissionErrors(ourPool, object, old);
        const upstreamErrors = admissionErrors(upstreamPool, object, old);
        expect(ourErrors.length === 0, formatFieldErrors(ourErrors)).toBe(upstreamErrors.length === 0);
      }),
      { ...runs, numRuns: 200 },
    );
  });

  it('NodeClaims on create and on update', () => {
    fc.assert(
      fc.property(nodeClaimArb, fc.option(nodeClaimArb, { nil: undefined }), (object, old) => {
        expect(admissionErrors(ourClaim, object, old).length === 0).toBe(admissionErrors(upstreamClaim, object, old).length === 0);
      }),
      runs,
    );
  });

  it('generated NodePools that upstream admits are admitted by validateObject with the same stored defaults', () => {
    fc.assert(
      fc.property(nodePoolArb, (object) => {
        fc.pre(admissionErrors(upstreamPool, object).length === 0);
        expect(ourPool.admit(object).object).toEqual(upstreamPool.admit(object).object);
      }),
      { ...runs, numRuns: 100 },
    );
  });
});

describe('NodePools written for Karpenter v1.0.9', () => {
  const v109 = oracle.nodePoolV109();
  const ourPool = ours.nodePool();

  it('are admitted whenever v1.0.9 admits them', () => {
    let admitted = 0;
    fc.assert(
      fc.property(v109NodePoolArb, (object) => {
        fc.pre(admissionErrors(v109, object).length === 0);
        admitted++;
        const errors = admissionErrors(ourPool, object);
        expect(formatFieldErrors(errors)).toBe('');
      }),
      runs,
    );
    expect(admitted).toBeGreaterThan(100);
  });
});
