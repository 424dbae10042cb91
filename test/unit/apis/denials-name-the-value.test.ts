// Every CEL denial of the CRDs names the offending value and where it is (list index or map key), not only the
// rule: a NodeClass with ten subnets or a NodePool with twenty requirements must say which one is wrong.
import { describe, expect, it } from 'vitest';
import { admitObject, formatFieldErrors } from '../../../src/apis/validation/index.js';

type Spec = Record<string, unknown>;
const object = (apiVersion: string, kind: string, spec: Spec) => ({ apiVersion, kind, metadata: { name: 'default' }, spec });
const osc = (spec: Spec) =>
  object('karpenter.outscale.sh/v1alpha1', 'OutscaleNodeClass', {
    region: 'eu-west-2',
    clusterId: 'prod-1',
    imageId: 'ami-0123abcd',
    securityGroupIds: ['sg-0123abcd'],
    ...spec,
  });
const scw = (spec: Spec) =>
  object('karpenter.scaleway.sh/v1alpha1', 'ScalewayNodeClass', {
    projectId: '11111111-2222-3333-4444-555555555555',
    image: 'ubuntu_jammy',
    userData: '#cloud-config\n',
    ...spec,
  });
const ovh = (spec: Spec) =>
  object('karpenter.ovhcloud.sh/v1alpha1', 'OVHNodeClass', { serviceName: '0123456789abcdef0123456789abcdef', ...spec });
const nodePool = (template: Spec) =>
  object('karpenter.sh/v1', 'NodePool', {
    template: {
      ...template,
      spec: {
        nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
        requirements: [],
        ...(template.spec as Spec),
      },
    },
  });
const withRequirements = (...requirements: unknown[]) => nodePool({ spec: { requirements } });

const denial = (obj: unknown, old?: unknown) => formatFieldErrors(admitObject(obj, { oldObject: old }).errors);

describe('CEL denials name the offending value and its place', () => {
  it('an Outscale subnet outside the region: its index, subnet id and subregion, and the region', () => {
    const subnets = [
      { subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' },
      { subregion: 'us-east-2a', subnetId: 'subnet-4567abcd' },
    ];
    expect(denial(osc({ subnets }))).toContain(
      "spec: Invalid value: \"object\": every subnet's subregion must be in 'region': spec.subnets[1] (subnet-4567abcd) is in subregion 'us-east-2a', not in region 'eu-west-2'",
    );
  });

  it('Scaleway zones of two regions: the zone, its index and the region of the first zone', () => {
    expect(denial(scw({ zones: ['fr-par-1', 'fr-par-2', 'nl-ams-1'] }))).toContain(
      "spec.zones: Invalid value: \"array\": all zones must be in the same region: spec.zones[2] 'nl-ams-1' is not in the region of spec.zones[0] 'fr-par-1'",
    );
  });

  it('tag keys: the reserved or empty key', () => {
    expect(denial(ovh({ tags: { team: 'ml', 'karpenter.sh/managed-by': 'me' } }))).toContain(
      "are reserved for the controller: 'karpenter.sh/managed-by'",
    );
    expect(denial(ovh({ tags: { '': 'x' } }))).toContain("tag keys must be 1 to 128 characters long: ''");
  });

  it('NodePool requirements: the index and key of the requirement at fault', () => {
    expect(denial(withRequirements({ key: 'a', operator: 'Exists' }, { key: 'team', operator: 'In', values: [] }))).toContain(
      "requirements with operator 'In' must have a value defined: requirements[1] (key 'team')",
    );
    expect(denial(withRequirements({ key: 'karpenter-eu.io/instance-cpu', operator: 'Gt', values: ['-1'] }))).toContain(
      "must have a single positive integer value: requirements[0] (key 'karpenter-eu.io/instance-cpu', 1 value(s), the first '-1')",
    );
    expect(
      denial(withRequirements({ key: 'a', operator: 'Exists' }, { key: 'zone', operator: 'In', values: ['a'], minValues: 2 })),
    ).toContain(
      "must have at least that many values specified in the 'values' field: requirements[1] (key 'zone', 1 value(s), minValues 2)",
    );
  });

  it('restricted label keys: the key, in requirements and in template labels', () => {
    expect(denial(withRequirements({ key: 'a', operator: 'Exists' }, { key: 'karpenter.sh/custom', operator: 'Exists' }))).toContain(
      'spec.template.spec.requirements[1].key: Invalid value: "string": label domain "karpenter.sh" is restricted: \'karpenter.sh/custom\'',
    );
    expect(denial(nodePool({ metadata: { labels: { team: 'a', 'team.karpenter.sh/custom': 'x' } } }))).toContain(
      'label domain "karpenter.sh" is restricted: \'team.karpenter.sh/custom\'',
    );
    expect(denial(nodePool({ metadata: { labels: { 'kubernetes.io/hostname': 'x' } } }))).toContain(
      'label "kubernetes.io/hostname" is restricted: \'kubernetes.io/hostname\'',
    );
  });

  it('disruption budgets: the schedule without a duration, the duration without a schedule', () => {
    const budgets = [{ nodes: '10%' }, { nodes: '0', schedule: '0 8 * * 1-5' }, { nodes: '0', duration: '8h' }];
    const pool = { ...nodePool({}), spec: { ...nodePool({}).spec, disruption: { budgets } } };
    expect(denial(pool)).toContain(
      "'schedule' must be set with 'duration': the budget with schedule '0 8 * * 1-5' has no duration; the budget with duration '8h' has no schedule",
    );
  });

  it('nodeClassRef group and kind changes: the old and the new value', () => {
    const before = nodePool({});
    const after = nodePool({ spec: { nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' } } });
    const text = denial(after, before);
    expect(text).toContain("nodeClassRef.group is immutable: was 'karpenter.ovhcloud.sh', now 'karpenter.scaleway.sh'");
    expect(text).toContain("nodeClassRef.kind is immutable: was 'OVHNodeClass', now 'ScalewayNodeClass'");
  });

  it('root volume iops: the volume type that does not take them', () => {
    expect(denial(scw({ zones: ['fr-par-1'], rootVolume: { type: 'l_ssd', iops: 5000 } }))).toContain(
      "spec.rootVolume: Invalid value: \"object\": 'iops' applies only to root volumes of type 'sbs_volume': iops 5000 on type 'l_ssd'",
    );
    const bsu = (fields: Spec) =>
      osc({
        subnets: [{ subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' }],
        blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 50, ...fields } }],
      });
    expect(denial(bsu({ volumeType: 'io1' }))).toContain(
      "spec.blockDeviceMappings[0].bsu: Invalid value: \"object\": 'iops' must be set for 'io1' volumes and only for them: an 'io1' volume without iops",
    );
    expect(denial(bsu({ volumeType: 'gp2', iops: 3000 }))).toContain(
      "'iops' must be set for 'io1' volumes and only for them: iops 3000 on a 'gp2' volume",
    );
  });

  it('static NodePools: the limits other than nodes, and the weight', () => {
    const staticPool = (fields: Spec) => ({ ...nodePool({}), spec: { ...nodePool({}).spec, replicas: 2, ...fields } });
    expect(denial(staticPool({ limits: { nodes: 5, cpu: '4', memory: '8Gi' } }))).toContain(
      "only 'limits.nodes' is supported on static NodePools: found limits cpu, memory",
    );
    expect(denial(staticPool({ weight: 10 }))).toContain("'weight' is not supported on static NodePools: found weight 10");
  });
});
