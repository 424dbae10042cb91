import { describe, expect, it } from 'vitest';
import {
  AnnotationDeletionReason,
  DeletionReasons,
  deletionReasonOf,
  deletionReasonOfDisruption,
  DisruptionReasons,
} from '../../../src/apis/index.js';
import type { NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { MetricReasons } from '../../../src/metrics/registry.js';

function nodeClaim(annotations: Record<string, string> = {}): NodeClaim {
  return { metadata: { name: 'nc', annotations }, spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] } };
}

describe('deletion reasons: one list, the metric label values', () => {
  it('every deletion reason is a `reason` label value, and the only other label value is `provisioned`', () => {
    const labelValues = new Set<string>(Object.values(MetricReasons));
    for (const reason of Object.values(DeletionReasons)) expect(labelValues.has(reason)).toBe(true);
    expect([...labelValues].filter((v) => !(Object.values(DeletionReasons) as string[]).includes(v))).toEqual(['provisioned']);
  });

  it('each disruption method maps to a deletion reason', () => {
    expect(DisruptionReasons.map(deletionReasonOfDisruption)).toEqual(['underutilized', 'empty', 'drifted']);
  });

  it.each([
    [{}, { reason: 'user' }],
    [{ [AnnotationDeletionReason]: 'garbage_collected' }, { reason: 'garbage_collected' }],
    [{ [AnnotationDeletionReason]: 'registration-timeout' }, { reason: 'registration_timeout' }],
    [{ [AnnotationDeletionReason]: 'unhealthy' }, { reason: 'unhealthy' }],
    [{ [AnnotationDeletionReason]: 'provisioned' }, { reason: 'user', unrecognised: 'provisioned' }],
    [{ [AnnotationDeletionReason]: 'because I said so' }, { reason: 'user', unrecognised: 'because I said so' }],
  ])('deletionReasonOf %o → %o', (annotations, expected) => {
    expect(deletionReasonOf(nodeClaim(annotations))).toEqual(expected);
  });
});
