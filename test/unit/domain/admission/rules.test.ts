import { describe, expect, it } from 'vitest';
import { admit, validate, type AdmissionContext, type KubeObject } from '../../../../src/domain/admission/index.js';
import { catalogs, context, nodePool, ovhClass, req } from './fixtures.js';

const IT = 'node.kubernetes.io/instance-type';
const ZONE = 'topology.kubernetes.io/zone';
const GPU = 'karpenter-eu.io/instance-gpu-name';

const scw = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'karpenter.scaleway.sh/v1alpha1',
  kind: 'ScalewayNodeClass',
  metadata: { name: 'scw' },
  spec: {
    projectId: '11111111-2222-4333-8444-555555555555',
    image: 'ubuntu_jammy',
    userData: '#cloud-config',
    zones: ['fr-par-1'],
    credentialsSecretRef: { name: 's', namespace: 'karpenter' },
    ...spec,
  },
});
const osc = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'karpenter.outscale.sh/v1alpha1',
  kind: 'OutscaleNodeClass',
  metadata: { name: 'osc' },
  spec: {
    region: 'eu-west-2',
    clusterId: 'my-cluster',
    imageId: 'ami-0123abcd',
    securityGroupIds: ['sg-0123abcd'],
    subnets: [{ subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' }],
    credentialsSecretRef: { name: 'o', namespace: 'karpenter' },
    ...spec,
  },
});
const claim = (nodeClass: string, launched = true): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name: 'c1' },
  spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: nodeClass }, requirements: [] },
  ...(launched ? { status: { providerID: 'openstack:///0b6a4c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c' } } : {}),
});
const budgets = (...b: Record<string, unknown>[]) => ({ extra: { disruption: { consolidateAfter: '0s', budgets: b } } });

interface Case {
  rule: string;
  object: KubeObject;
  ctx?: AdmissionContext;
  /** Substrings the denial must contain (path, value, fix); absent = must be allowed. */
  denied?: string[];
}

/** The running service once its providers have read the clouds: only then is an unknown value proof. */
const everything = { regionsListed: true, flavorsOf: ['EU-WEST-PAR', 'GRA7', 'fr-par', 'eu-west-2'] };
const liveContext = context(undefined, { liveCatalogs: { ovhcloud: everything, scaleway: everything, outscale: everything } });

const cases: Case[] = [
  // limits
  {
    rule: 'limits: fits the smallest flavor',
    object: nodePool('p', { limits: { cpu: '2', memory: '8Gi' }, requirements: [req(IT, 'In', 'b3-8', 'b3-16')] }),
  },
  {
    rule: 'limits: too small for any flavor',
    object: nodePool('p', { limits: { cpu: '1' }, requirements: [req(IT, 'In', 'b3-8', 'b3-16')] }),
    denied: ['spec.limits[cpu]', '"1"', 'b3-8', 'at least 2'],
  },
  {
    rule: 'limits: unknown resource name',
    object: nodePool('p', { limits: { memroy: '8Gi' } }),
    denied: ['spec.limits[memroy]', 'did you mean "memory"'],
  },
  { rule: 'limits: negative value', object: nodePool('p', { limits: { cpu: '-4' } }), denied: ['spec.limits[cpu]', 'zero or more'] },
  { rule: 'limits: malformed quantity', object: nodePool('p', { limits: { memory: '8GB' } }), denied: ['spec.limits[memory]', '8GB'] },
  { rule: 'limits: extended resource accepted', object: nodePool('p', { limits: { 'amd.com/gpu': '2', nodes: '10' } }) },
  // zones
  { rule: 'zones: all three PAR zones', object: nodePool('p', { requirements: [req(ZONE, 'In', 'eu-west-par-a', 'eu-west-par-c')] }) },
  {
    rule: 'zones: one-AZ region has no -b',
    object: nodePool('p', { requirements: [req(ZONE, 'In', 'gra7-a', 'gra7-b')] }),
    ctx: context([ovhClass('default', { region: 'GRA7' })]),
    denied: ['requirements[0].values[1]', '"gra7-b"', 'region GRA7', 'accepted: "gra7-a"'],
  },
  {
    rule: 'zones: typo gets a suggestion',
    object: nodePool('p', { requirements: [req(ZONE, 'In', 'eu-west-par-1')] }),
    denied: ['did you mean "eu-west-par-a"'],
  },
  // instance types and capacity type
  { rule: 'instance types: known flavors', object: nodePool('p', { requirements: [req(IT, 'In', 'b3-8', 'c3-16')] }) },
  {
    rule: 'instance types: unknown flavor (live catalog)',
    ctx: liveContext,
    object: nodePool('p', { requirements: [req(IT, 'In', 'b3-9')] }),
    denied: ['requirements[0].values[0]', '"b3-9"', 'did you mean "b3-8"'],
  },
  {
    rule: 'instance types: another cloud’s flavor (live catalog)',
    ctx: liveContext,
    object: nodePool('p', { requirements: [req(IT, 'In', 'PRO2-S')] }),
    denied: ['"PRO2-S"', 'unknown ovhcloud flavor'],
  },
  {
    rule: 'instance types: nothing left',
    object: nodePool('p', { requirements: [req(IT, 'In', 'b3-8'), req('karpenter-eu.io/instance-cpu', 'Gt', '64')] }),
    denied: ['spec.template.spec.requirements', 'no ovhcloud flavor'],
  },
  { rule: 'capacity type: on-demand', object: nodePool('p', { requirements: [req('karpenter.sh/capacity-type', 'In', 'on-demand')] }) },
  {
    rule: 'capacity type: spot refused',
    object: nodePool('p', { requirements: [req('karpenter.sh/capacity-type', 'In', 'on-demand', 'spot')] }),
    denied: ['values[1]', '"spot"', 'accepted: "on-demand"'],
  },
  // gpu
  { rule: 'gpu: l4 in EU-WEST-PAR', object: nodePool('p', { requirements: [req(GPU, 'In', 'l4', 'l40s')] }) },
  {
    rule: 'gpu: model not offered on the cloud',
    object: nodePool('p', { requirements: [req(GPU, 'In', 'rtx3070')] }),
    denied: ['"rtx3070"', 'has no rtx3070 flavor', 'GPUs offered there'],
  },
  {
    rule: 'gpu: unknown model',
    object: nodePool('p', { requirements: [req(GPU, 'In', 'h200')] }),
    denied: ['unknown GPU model', 'did you mean "h100"'],
  },
  // monthly billing
  {
    rule: 'billing: gen2 only under monthly',
    object: nodePool('p', { nodeClass: 'monthly', requirements: [req('karpenter-eu.io/instance-family', 'In', 'b2', 'c2')] }),
    ctx: context([ovhClass('monthly', { monthlyBilled: true })]),
  },
  {
    rule: 'billing: gen3 under monthly',
    object: nodePool('p', { nodeClass: 'monthly', requirements: [req(IT, 'In', 'b2-7', 'b3-8')] }),
    ctx: context([ovhClass('monthly', { monthlyBilled: true })]),
    denied: ['"b3-8"', 'monthlyBilled', 'instance-family In [b2, c2, d2, r2]'],
  },
  {
    rule: 'billing: turning monthly on while a pool allows gen3',
    object: ovhClass('default', { monthlyBilled: true }),
    ctx: {
      ...context([nodePool('general', { requirements: [req(IT, 'In', 'b3-8')] })]),
      operation: 'UPDATE',
      oldObject: ovhClass('default'),
    },
    denied: ['spec.monthlyBilled', 'NodePool "general"', '"b3-8"'],
  },
  {
    rule: 'billing: turning monthly on with gen2 pools',
    object: ovhClass('default', { monthlyBilled: true }),
    ctx: context([nodePool('base', { requirements: [req(IT, 'In', 'b2-7')] })]),
  },
  // anti-affinity
  {
    rule: 'anti-affinity: reachable limit',
    object: nodePool('p', {
      nodeClass: 'aa',
      limits: { nodes: '5' },
      requirements: [req(IT, 'In', 'b3-16'), req(ZONE, 'In', 'eu-west-par-a')],
    }),
    ctx: context([ovhClass('aa', { antiAffinity: true })]),
  },
  {
    rule: 'anti-affinity: unreachable nodes limit',
    object: nodePool('p', {
      nodeClass: 'aa',
      limits: { nodes: '101' },
      requirements: [req(IT, 'In', 'b3-16'), req(ZONE, 'In', 'eu-west-par-a')],
    }),
    ctx: context([ovhClass('aa', { antiAffinity: true })]),
    denied: ['spec.limits[nodes]', '"101"', 'at most 5 nodes', 'at most 100 nodes can ever run (5 × 20 pools × 1 flavor(s) × 1 zone(s))'],
  },
  // disruption
  {
    rule: 'disruption: valid schedule',
    object: nodePool('p', budgets({ nodes: '0', schedule: '0 8 * * 1-5', duration: '10h' }, { nodes: '20%' })),
  },
  {
    rule: 'disruption: hour out of range',
    object: nodePool('p', budgets({ nodes: '0', schedule: '0 24 * * *', duration: '1h' })),
    denied: ['budgets[0].schedule', '"0 24 * * *"', 'hour'],
  },
  {
    rule: 'disruption: backwards range the budget parser refuses',
    object: nodePool('p', budgets({ nodes: '0', schedule: '5-1 * * * *', duration: '1h' })),
    denied: ['budgets[0].schedule', '"5-1 * * * *"', 'minute'],
  },
  {
    rule: 'disruption: cron extensions upstream refuses (L, #)',
    object: nodePool('p', budgets({ nodes: '0', schedule: '0 0 L * *', duration: '1h' })),
    denied: ['budgets[0].schedule', '"0 0 L * *"'],
  },
  {
    rule: 'disruption: N/step means N-max/step, as upstream',
    object: nodePool('p', budgets({ nodes: '0', schedule: '5/15 * * * *', duration: '1h' })),
  },
  {
    rule: 'disruption: schedule without duration (CEL)',
    object: nodePool('p', budgets({ nodes: '0', schedule: '@daily' })),
    denied: ["'schedule' must be set with 'duration'"],
  },
  {
    rule: 'disruption: percent over 100 (schema)',
    object: nodePool('p', budgets({ nodes: '101%' })),
    denied: ['budgets[0].nodes', '101%'],
  },
  {
    rule: 'disruption: bad consolidateAfter (schema)',
    object: nodePool('p', { extra: { disruption: { consolidateAfter: '1d' } } }),
    denied: ['consolidateAfter', '1d'],
  },
  {
    rule: 'disruption: unknown reason (schema)',
    object: nodePool('p', budgets({ nodes: '1', reasons: ['Expired'] })),
    denied: ['reasons', 'Expired'],
  },
  // references
  { rule: 'references: missing NodeClass only warns', object: nodePool('p', { nodeClass: 'later' }) },
  {
    rule: 'references: unsupported group',
    object: nodePool('p', { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' }),
    denied: ['nodeClassRef.group', 'karpenter.ovhcloud.sh/OVHNodeClass'],
  },
  {
    rule: 'references: wrong kind for group',
    object: nodePool('p', { kind: 'ScalewayNodeClass' }),
    denied: ['nodeClassRef.kind', '"OVHNodeClass"'],
  },
  // node classes
  { rule: 'ovh: valid class', object: ovhClass('c') },
  {
    rule: 'ovh: serviceName not 32 hex (schema)',
    object: ovhClass('c', { serviceName: 'abc123' }),
    denied: ['spec.serviceName', 'abc123'],
  },
  { rule: 'ovh: kubeId not a UUID (schema)', object: ovhClass('c', { kubeId: 'cluster-xyz' }), denied: ['spec.kubeId'] },
  {
    rule: 'ovh: unknown region (live catalog)',
    ctx: liveContext,
    object: ovhClass('c', { region: 'GRA77' }),
    denied: ['spec.region', '"GRA77"', 'did you mean "GRA7"'],
  },
  {
    rule: 'ovh: no credentials and none global',
    object: ovhClass('c', { credentialsSecretRef: undefined }),
    denied: ['spec.credentialsSecretRef', 'global credentials'],
  },
  {
    rule: 'ovh: global credentials',
    object: ovhClass('c', { credentialsSecretRef: undefined }),
    ctx: { ...context(), defaults: { gpuTaint: true, globalCredentials: { ovhcloud: true } } },
  },
  {
    rule: 'ovh: region immutable while claims exist',
    object: ovhClass('default', { region: 'GRA7' }),
    ctx: { ...context([claim('default')]), operation: 'UPDATE', oldObject: ovhClass('default') },
    denied: ['spec.region', 'immutable', '1 launched NodeClaim'],
  },
  {
    rule: 'ovh: a placeholder region is corrected while its only NodeClaim never launched',
    object: ovhClass('default', { region: 'GRA7' }),
    ctx: { ...context([claim('default', false)]), operation: 'UPDATE', oldObject: ovhClass('default') },
  },
  {
    rule: 'ovh: region changes freely without claims',
    object: ovhClass('default', { region: 'GRA7' }),
    ctx: { ...context([]), operation: 'UPDATE', oldObject: ovhClass('default') },
  },
  { rule: 'scaleway: valid class', object: scw({ zones: ['fr-par-1', 'fr-par-2'] }) },
  {
    rule: 'scaleway: unknown zone (live catalog)',
    ctx: liveContext,
    object: scw({ zones: ['fr-par-4'] }),
    denied: ['spec.zones[0]', '"fr-par-4"', 'did you mean'],
  },
  {
    rule: 'scaleway: zones of two regions',
    object: scw({ zones: ['fr-par-1', 'fr-par-2', 'nl-ams-1'] }),
    denied: ["spec.zones[2] 'nl-ams-1' is not in the region of spec.zones[0] 'fr-par-1'"],
  },
  { rule: 'outscale: valid class', object: osc({ tags: { team: 'a' } }) },
  {
    rule: 'outscale: reserved CCM tag',
    object: osc({ tags: { 'OscK8sClusterID/my-cluster': 'owned' } }),
    denied: ['spec.tags[OscK8sClusterID/my-cluster]', 'remove it'],
  },
  {
    rule: 'outscale: unknown region (live catalog)',
    ctx: liveContext,
    object: osc({ region: 'eu-west-3', subnets: [{ subregion: 'eu-west-3a', subnetId: 'subnet-0123abcd' }] }),
    denied: ['spec.region', 'did you mean "eu-west-2"'],
  },
  { rule: 'outscale: bad image id (schema)', object: osc({ imageId: 'ami-xyz' }), denied: ['spec.imageId'] },
];

describe('admission rules', () => {
  it.each(cases)('$rule', ({ object, ctx, denied }) => {
    const result = validate(object, ctx ?? context());
    if (!denied) {
      expect(result.message).toBe('');
      expect(result.allowed).toBe(true);
      return;
    }
    expect(result.allowed).toBe(false);
    for (const part of denied) expect(result.message).toContain(part);
  });

  it.each([
    [
      'an OVH flavor newer than the file',
      nodePool('p', { limits: { cpu: '64' }, requirements: [req(IT, 'In', 'b3-8', 'b4-16')] }),
      'spec.template.spec.requirements[0].values[1]: "b4-16": unknown ovhcloud flavor',
    ],
    ['an OVH region newer than the file', ovhClass('c', { region: 'RBX-B' }), 'spec.region: "RBX-B": unknown ovhcloud region'],
    ['a Scaleway zone newer than the file', scw({ zones: ['fr-par-4'] }), 'spec.zones[0]: "fr-par-4": unknown Scaleway zone'],
    [
      'an Outscale region newer than the file',
      osc({ region: 'eu-west-3', subnets: [{ subregion: 'eu-west-3a', subnetId: 'subnet-0123abcd' }] }),
      'spec.region: "eu-west-3": unknown outscale region',
    ],
  ])('admits %s with a warning naming the value, where it is and the bundled catalog date', (_, object, expected) => {
    const result = validate(object, context());
    expect(result.message).toBe('');
    expect(result.allowed).toBe(true);
    const cloud = expected.includes('Scaleway') ? 'scaleway' : expected.includes('outscale') ? 'outscale' : 'ovhcloud';
    expect(result.warnings).toEqual([expect.stringContaining(expected)]);
    expect(result.warnings[0]).toContain(`bundled ${cloud} catalog of ${catalogs[cloud].retrieved}`);
  });

  it('admits a NodePool whose only flavors the bundled catalog does not know, warning that nothing it knows is left', () => {
    const result = validate(nodePool('p', { requirements: [req(IT, 'In', 'b4-16')] }), context());
    expect(result.allowed).toBe(true);
    expect(result.warnings.join('\n')).toMatch(
      /no ovhcloud flavor in region EU-WEST-PAR satisfies these requirements.*unless the flavors the bundled catalog/,
    );
    expect(validate(nodePool('p', { requirements: [req(IT, 'In', 'b4-16')] }), liveContext).allowed).toBe(false);
  });

  it('warns about a NodePool without limits, naming a limit sized on its largest flavor', () => {
    const result = validate(nodePool('p', { requirements: [req(IT, 'In', 'b3-8', 'b3-16')] }), context());
    expect(result.allowed).toBe(true);
    expect(result.warnings).toEqual([expect.stringContaining('NodePool "p": spec.limits is not set')]);
    expect(result.warnings[0]).toContain('suggested: limits: {cpu: "40", memory: "148Gi"} (10 of its largest flavor, b3-16)');
    expect(validate(nodePool('p', { limits: { cpu: '40' }, requirements: [req(IT, 'In', 'b3-8')] }), context()).warnings).toEqual([]);
  });

  it('refuses a pod selecting the Scaleway GPU controller label, with the exact line to write instead, offline as live', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'gpu-test' },
      spec: { nodeSelector: { 'karpenter.sh/instance-type': 'l4' }, containers: [{ name: 'c', image: 'i' }] },
    };
    const denial =
      "spec.nodeSelector: Forbidden: karpenter.sh/instance-type is the Scaleway GPU controller's label, which no node carries: the pod would stay Pending; instead of `karpenter.sh/instance-type: l4` write `karpenter-eu.io/instance-gpu-name: l4`";
    expect(validate(pod, context())).toMatchObject({ allowed: false, message: denial });
    const admitted = admit(pod, context());
    expect(admitted).toMatchObject({ allowed: false, message: denial });
    const byFlavor = validate({ ...pod, spec: { ...pod.spec, nodeSelector: { 'karpenter.sh/instance-type': '3070' } } }, context());
    expect(byFlavor.message).toContain('write `karpenter-eu.io/instance-gpu-name: rtx3070`');
    const plain = validate({ ...pod, spec: { ...pod.spec, nodeSelector: { 'karpenter.sh/instance-type': 'b3-8' } } }, context());
    expect(plain.message).toContain('write `node.kubernetes.io/instance-type: b3-8`');
    const gpuPod = {
      ...pod,
      spec: { ...pod.spec, containers: [{ name: 'c', image: 'i', resources: { limits: { 'nvidia.com/gpu': '1' } } }] },
    };
    expect(validate(gpuPod, context()).message).toContain(
      "and tolerate the GPU nodes' taint: `tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]`",
    );
  });

  it('warns an anti-affinity NodePool that may outgrow one MKS pool per flavor and zone, and not one limited to 5 nodes', () => {
    const spread = (limits?: Record<string, string>) =>
      nodePool('p', {
        nodeClass: 'aa',
        ...(limits ? { limits } : {}),
        requirements: [req(IT, 'In', 'b3-16'), req(ZONE, 'In', 'eu-west-par-a')],
      });
    const ctx = context([ovhClass('aa', { antiAffinity: true })]);
    const aa = (r: ReturnType<typeof admit>) => r.warnings.filter((w) => w.includes('anti-affinity'));
    expect(aa(admit(spread({ nodes: '6' }), ctx))).toEqual([expect.stringContaining('opens another pool (-p2…)')]);
    expect(aa(admit(spread(), ctx))[0]?.length).toBeLessThanOrEqual(256);
    expect(aa(admit(spread({ nodes: '5' }), ctx))).toEqual([]);
  });

  it('warns, without denying, when the NodeClass does not exist yet', () => {
    const result = validate(nodePool('p', { nodeClass: 'later', limits: { cpu: '64' } }), context());
    expect(result.warnings).toEqual([expect.stringContaining('OVHNodeClass "later" does not exist yet')]);
  });

  it('allows kinds it does not own, and DELETE', () => {
    expect(validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, context()).allowed).toBe(true);
    expect(validate(nodePool('p', { limits: { cpu: '-1' } }), { ...context(), operation: 'DELETE' }).allowed).toBe(true);
  });

  it('runs the CEL transition rules on UPDATE (nodeClassRef.kind is immutable)', () => {
    const old = nodePool('p');
    const updated = nodePool('p', { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass' });
    const result = validate(updated, { ...context(), operation: 'UPDATE', oldObject: old });
    expect(result.message).toContain('nodeClassRef.kind is immutable');
  });

  it('warns about a pod no NodePool could place, naming the closest flavor', () => {
    const pool = nodePool('gpu', { requirements: [req(GPU, 'In', 'l4')] });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'trainer' },
      spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': '8' } } }] },
    };
    const result = validate(pod, context([ovhClass('default'), pool]));
    expect(result.allowed).toBe(true);
    expect(result.warnings).toEqual([
      expect.stringMatching(/pod "trainer" can never be placed.*nvidia.com\/gpu 8.*l4-360.*nvidia.com\/gpu 4/),
    ]);
    const small = { ...pod, spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': '1' } } }] } };
    expect(validate(small, context([ovhClass('default'), pool])).warnings).toEqual([]);
  });

  it('reports every violation of one object in one message', () => {
    const result = admit(
      nodePool('p', { limits: { cpus: '1' }, requirements: [req(ZONE, 'In', 'eu-west-par-z'), req(IT, 'In', 'b9-8')] }),
      context(),
    );
    expect(result.message.split('; ').length).toBeGreaterThanOrEqual(3);
  });
});
