import { describe, expect, it } from 'vitest';
import { admitOffline, type KubeObject } from '../../../../src/domain/admission/index.js';
import { catalogs, defaults, nodePool, ovhClass } from './fixtures.js';

const pod = (i: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `web-${i}`, namespace: 'default' },
  spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
});

/** The set with every object's `kind` behind a getter that counts its reads. */
function countingKindReads(objects: KubeObject[]): { objects: KubeObject[]; reads: () => number } {
  let reads = 0;
  const counted = objects.map((object) => {
    const { kind, ...rest } = object;
    return Object.defineProperty(rest, 'kind', { enumerable: true, get: () => (reads++, kind) }) as KubeObject;
  });
  return { objects: counted, reads: () => reads };
}

function kindReadsToAdmit(podCount: number): number {
  const set = countingKindReads([ovhClass('default'), nodePool('default'), ...Array.from({ length: podCount }, (_, i) => pod(i))]);
  admitOffline(set.objects, catalogs, defaults);
  return set.reads();
}

describe('admitOffline over a set of files', () => {
  it('admits each object against the others of its set: a NodePool finds the NodeClass of the set, not one the set lacks', () => {
    const reviews = admitOffline(
      [ovhClass('default'), nodePool('default'), nodePool('other', { nodeClass: 'missing' }), pod(0)],
      catalogs,
      defaults,
    );
    expect(reviews.map((r) => [r.original.kind, r.outcome.allowed])).toEqual([
      ['OVHNodeClass', true],
      ['NodePool', true],
      ['NodePool', true],
      ['Pod', true],
    ]);
    expect(reviews[1]?.outcome.warnings.join('\n')).not.toContain('does not exist');
    expect(reviews[2]?.outcome.warnings.join('\n')).toContain('OVHNodeClass "missing" does not exist yet');
  });

  // Each object's context was rebuilt by scanning the whole set: `plan` of 5,000 pods spent seconds there.
  it('does work linear in the size of the set: four times the pods, about four times the reads', () => {
    const small = kindReadsToAdmit(250);
    const large = kindReadsToAdmit(1000);
    expect(large / small).toBeLessThan(5);
  });
});
