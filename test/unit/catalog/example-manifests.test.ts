import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { validateObject } from '../../../src/apis/validation/validate-object.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { gpuNamesFor } from '../../../src/domain/instancetypes/gpu-mapping.js';

const root = 'manifests/examples';
const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.yaml'))
  .sort();
type Obj = { apiVersion: string; kind: string; metadata: { name: string }; spec: Record<string, unknown> };
const docs = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(root, file), 'utf8')).map((d) => ({ file, obj: d.toJS() as Obj })),
);
const karpenterKinds = docs.filter((d) => /karpenter\./.test(d.obj.apiVersion));
const cloudOfGroup: Record<string, 'ovhcloud' | 'scaleway' | 'outscale'> = {
  'karpenter.ovhcloud.sh': 'ovhcloud',
  'karpenter.scaleway.sh': 'scaleway',
  'karpenter.outscale.sh': 'outscale',
};

describe('example manifests', () => {
  it('cover every cloud and the demo workloads', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'ovhcloud/nodeclass.yaml',
        'scaleway/nodepools.yaml',
        'outscale/nodepools.yaml',
        'workloads/zone-spread.yaml',
        'workloads/gpu-pod.yaml',
      ]),
    );
    expect(karpenterKinds.filter((d) => d.obj.kind === 'NodePool').length).toBeGreaterThanOrEqual(8);
  });

  it.each(karpenterKinds.map((d) => [`${d.file} ${d.obj.kind}/${d.obj.metadata.name}`, d.obj] as const))(
    '%s is valid under the CRD schema and CEL rules',
    (_name, obj) => {
      expect(validateObject(obj)).toEqual([]);
    },
  );

  it('NodePools name only flavors, zones and GPU models their cloud has', () => {
    for (const { obj } of karpenterKinds.filter((d) => d.obj.kind === 'NodePool')) {
      const spec = (
        obj.spec.template as { spec: { nodeClassRef: { group: string }; requirements: Array<{ key: string; values?: string[] }> } }
      ).spec;
      const cloud = cloudOfGroup[spec.nodeClassRef.group]!;
      const catalog = loadCatalog(cloud);
      const flavors = new Set(catalog.flavors.map((f) => f.name));
      const zones = new Set(catalog.regions.flatMap((r) => r.zones));
      const families = new Set(catalog.flavors.map((f) => f.family));
      for (const r of spec.requirements) {
        const values = r.values ?? [];
        if (r.key === 'node.kubernetes.io/instance-type')
          for (const v of values) expect(flavors, `${obj.metadata.name}: ${v}`).toContain(v);
        if (r.key === 'topology.kubernetes.io/zone') for (const v of values) expect(zones).toContain(v);
        if (r.key === 'karpenter-eu.io/instance-family') for (const v of values) expect(families).toContain(v);
        if (r.key === 'karpenter-eu.io/instance-gpu-name') for (const v of values) expect(gpuNamesFor(cloud)).toContain(v);
      }
    }
  });
});

describe('example manifests, negative control', () => {
  it('the schema check does reject a broken OVHNodeClass', () => {
    const ovh = docs.find((d) => d.obj.kind === 'OVHNodeClass')!.obj;
    expect(validateObject({ ...ovh, spec: { ...ovh.spec, serviceName: 'not-hex' } }).length).toBeGreaterThan(0);
  });
});
