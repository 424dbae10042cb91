import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseManifests, readManifestPaths } from '../../../../src/util/manifest-files.js';
import { admit, effectiveNodePool, mutate, validate, type KubeObject } from '../../../../src/domain/admission/index.js';
import { context, defaults, nodePool, ovhClass, req } from './fixtures.js';

const IT = 'node.kubernetes.io/instance-type';
const reqs = (o: KubeObject): { key: string; values: string[] }[] =>
  (o.spec as { template: { spec: { requirements: { key: string; values: string[] }[] } } }).template.spec.requirements;

// The OVHcloud provider's documented examples (shared/seeds 001, 002) with the placeholders (serviceName
// "abc123def456...", kubeId "cluster-xyz...") replaced by well-formed ids; the GRA7 multi-zone examples are
// left out on purpose: GRA7 is a one-AZ region, so their gra7-b/gra7-c zones are denied (tested below).
const seedYaml = `
apiVersion: karpenter.ovhcloud.sh/v1alpha1
kind: OVHNodeClass
metadata: {name: default}
spec:
  serviceName: "0123456789abcdef0123456789abcdef"
  kubeId: "6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03"
  region: "GRA7"
  credentialsSecretRef: {name: ovh-credentials, namespace: karpenter}
  monthlyBilled: false
  antiAffinity: false
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: dev-pool}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["b2-7", "b2-15"]
  limits: {cpu: 50, memory: 100Gi}
  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 10s}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu-pool}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["t2-45", "t2-90", "t2-180"]
      taints:
        - {key: nvidia.com/gpu, value: "true", effect: NoSchedule}
  limits: {cpu: 100}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: kubernetes.io/arch, operator: In, values: ["amd64"]}
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["b3-8", "b3-16", "b3-32"]}
  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 30s}
`;

function admitAll(objects: KubeObject[]) {
  return objects.map((object) => {
    const others = objects.filter((o) => o !== object);
    return { object, outcome: admit(object, context(others)) };
  });
}

describe('documented examples', () => {
  it('admits every valid seed example, changing only the documented defaults', () => {
    const { objects, errors } = parseManifests(seedYaml, 'seeds.yaml');
    expect(errors).toEqual([]);
    for (const { object, outcome } of admitAll(objects.map((o) => o.object))) {
      expect(outcome.message, `${String(object.kind)}`).toBe('');
      expect(outcome.allowed).toBe(true);
      // Only additions: everything the user wrote is still there, unchanged.
      if (object.kind === 'NodePool') for (const r of reqs(object)) expect(reqs(outcome.object)).toContainEqual(r);
      expect({ ...(outcome.object.spec as object), template: undefined }).toMatchObject({
        ...(object.spec as object),
        template: undefined,
      });
    }
  });

  it('admits every example under manifests/examples', () => {
    const { objects, errors } = readManifestPaths(['manifests/examples']);
    expect(errors).toEqual([]);
    const results = admitAll(objects.map((o) => o.object));
    expect(results.length).toBeGreaterThan(10);
    for (const { object, outcome } of results) expect(`${String(object.kind)}/${outcome.message}`).toBe(`${String(object.kind)}/`);
  });

  it('denies the GRA7 multi-zone example with the zone that exists', () => {
    const pool = nodePool('production-pool', {
      requirements: [req(IT, 'In', 'b2-30'), req('topology.kubernetes.io/zone', 'In', 'gra7-a', 'gra7-b', 'gra7-c')],
    });
    const result = validate(pool, context([ovhClass('default', { region: 'GRA7' })]));
    expect(result.allowed).toBe(false);
    expect(result.message).toContain('"gra7-b": not a zone of region GRA7');
    expect(result.message).toContain('accepted: "gra7-a"');
  });
});

describe('read-time defaults (effectiveNodePool), reported by the defaulting webhook without a patch', () => {
  it('reads on-demand and amd64 when absent, with a warning each, and stores the pool as written', () => {
    const pool = nodePool('p', { requirements: [req(IT, 'In', 'b3-8')] });
    const { warnings } = mutate(pool, context());
    expect(reqs(effectiveNodePool(pool, context()))).toEqual([
      req(IT, 'In', 'b3-8'),
      req('karpenter.sh/capacity-type', 'In', 'on-demand'),
      req('kubernetes.io/arch', 'In', 'amd64'),
    ]);
    expect(reqs(pool)).toEqual([req(IT, 'In', 'b3-8')]);
    expect(admit(pool, context()).object).toBe(pool);
    expect(warnings).toEqual([
      'NodePool "p": no karpenter.sh/capacity-type requirement, karpenter.sh/capacity-type In [on-demand] applies',
      'NodePool "p": no kubernetes.io/arch requirement, kubernetes.io/arch In [amd64] applies',
    ]);
  });

  it('reads a NodePool that already says everything as stored, without a warning', () => {
    const pool = nodePool('p', {
      limits: { cpu: '10' },
      requirements: [req(IT, 'In', 'b3-8'), req('karpenter.sh/capacity-type', 'In', 'on-demand'), req('kubernetes.io/arch', 'In', 'amd64')],
    });
    expect(mutate(pool, context())).toEqual({ warnings: [] });
    expect(effectiveNodePool(pool, context())).toEqual(pool);
  });

  it('canonicalises flavor case and GPU aliases', () => {
    const pool = nodePool('p', { requirements: [req(IT, 'In', 'B3-8', 'l4')] });
    const outcome = admit(pool, context());
    expect(reqs(outcome.effective)[0]?.values).toEqual(['b3-8', 'l4-90']);
    expect(reqs(outcome.object)[0]?.values).toEqual(['B3-8', 'l4']);
    expect(outcome.warnings.join('\n')).toContain('"B3-8" read as "b3-8"');
  });

  it('fills limits from the configured defaults', () => {
    const outcome = admit(nodePool('p'), { ...context(), defaults: { ...defaults, limits: { cpu: '1000', memory: '1000Gi' } } });
    expect((outcome.effective.spec as { limits: unknown }).limits).toEqual({ cpu: '1000', memory: '1000Gi' });
    expect((outcome.object.spec as { limits?: unknown }).limits).toBeUndefined();
  });

  it('restricts to gen2 under monthly billing when the NodePool does not restrict flavors', () => {
    const outcome = admit(nodePool('p', { nodeClass: 'monthly' }), context([ovhClass('monthly', { monthlyBilled: true })]));
    expect(outcome.allowed).toBe(true);
    expect(reqs(outcome.effective)).toContainEqual(req('karpenter-eu.io/instance-family', 'In', 'b2', 'c2', 'd2', 'r2'));
  });

  it('taints GPU-only NodePools when configured, and not otherwise', () => {
    const pool = nodePool('p', { requirements: [req('karpenter-eu.io/instance-gpu-name', 'In', 'l4')] });
    const taintsOf = (o: KubeObject) => (o.spec as { template: { spec: { taints?: unknown[] } } }).template.spec.taints;
    expect(taintsOf(effectiveNodePool(pool, context()))).toEqual([{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(taintsOf(effectiveNodePool(pool, { ...context(), defaults: { ...defaults, gpuTaint: false } }))).toBeUndefined();
    expect(taintsOf(effectiveNodePool(nodePool('q', { requirements: [req(IT, 'In', 'b3-8', 'l4-90')] }), context()))).toBeUndefined();
  });

  it('reports the OVH region and kubeId the service configuration supplies, and stores the class as written', () => {
    const nodeClass = JSON.parse(JSON.stringify(ovhClass('c', { region: undefined, kubeId: undefined }))) as KubeObject;
    const outcome = admit(nodeClass, {
      ...context(),
      defaults: { ...defaults, ovh: { region: 'GRA9', kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d04' } },
    });
    expect(outcome.allowed).toBe(true);
    expect(outcome.object.spec).not.toHaveProperty('region');
    expect(outcome.warnings).toEqual([
      'OVHNodeClass "c": no spec.region, the service\'s configured "GRA9" applies',
      'OVHNodeClass "c": no spec.kubeId, the service\'s configured "6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d04" applies',
    ]);
  });

  it('never throws, whatever the object', () => {
    const anyObject = fc.oneof(
      fc.jsonValue(),
      fc.record({
        kind: fc.constantFrom('NodePool', 'OVHNodeClass', 'NodeClaim', 'Pod'),
        apiVersion: fc.constantFrom('karpenter.sh/v1', 'karpenter.ovhcloud.sh/v1alpha1', 'v1'),
        spec: fc.jsonValue(),
        metadata: fc.jsonValue(),
      }),
      fc.record({
        kind: fc.constant('NodePool'),
        apiVersion: fc.constant('karpenter.sh/v1'),
        spec: fc.record({
          template: fc.record({
            spec: fc.record({
              requirements: fc.array(fc.record({ key: fc.string(), operator: fc.string(), values: fc.array(fc.string()) })),
              taints: fc.jsonValue(),
            }),
          }),
          limits: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
        }),
      }),
    );
    fc.assert(
      fc.property(anyObject, (value) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
        const object = value as KubeObject;
        expect(Array.isArray(mutate(object, context()).warnings)).toBe(true);
        effectiveNodePool(object, context());
        const result = validate(object, context());
        expect(typeof result.allowed).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});
