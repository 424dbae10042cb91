import { describe, expect, it } from 'vitest';
import {
  type NodeClaim,
  type NodePool,
  type OutscaleNodeClass,
  type OVHNodeClassSpec,
  type ScalewayNodeClassSpec,
  NodeClaimApiVersion,
  NodePoolApiVersion,
  OVHNodeClassApiVersion,
  findCrdDefinition,
} from '../../../src/apis/index.js';
import { validateObject } from '../../../src/apis/validation/index.js';

describe('TypeScript types derived from the schemas', () => {
  it('type the objects the validation admits', () => {
    const pool: NodePool = {
      apiVersion: NodePoolApiVersion,
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
            requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
          },
        },
        disruption: { consolidationPolicy: 'WhenEmpty', budgets: [{ nodes: '10%', reasons: ['Empty'] }] },
        limits: { cpu: 100, memory: '200Gi' },
      },
    };
    const claim: NodeClaim = { apiVersion: NodeClaimApiVersion, kind: 'NodeClaim', metadata: { name: 'c' }, spec: pool.spec.template.spec };
    const ovh: OVHNodeClassSpec = { serviceName: '0123456789abcdef0123456789abcdef', monthlyBilled: true };
    const scw: ScalewayNodeClassSpec = {
      projectId: '11111111-2222-3333-4444-555555555555',
      zones: ['fr-par-2'],
      image: 'ubuntu_jammy',
      userData: '#cloud-config',
    };
    const osc: OutscaleNodeClass['spec'] = {
      region: 'eu-west-2',
      clusterId: 'c',
      imageId: 'ami-0123abcd',
      subnets: [{ subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' }],
      securityGroupIds: ['sg-0123abcd'],
    };
    expect(validateObject(pool)).toEqual([]);
    expect(validateObject(claim)).toEqual([]);
    expect(validateObject({ apiVersion: OVHNodeClassApiVersion, kind: 'OVHNodeClass', spec: ovh })).toEqual([]);
    expect(validateObject({ apiVersion: 'karpenter.scaleway.sh/v1alpha1', kind: 'ScalewayNodeClass', spec: scw })).toEqual([]);
    expect(validateObject({ apiVersion: 'karpenter.outscale.sh/v1alpha1', kind: 'OutscaleNodeClass', spec: osc })).toEqual([]);
  });

  it('finds each served kind by apiVersion and kind', () => {
    expect(findCrdDefinition('karpenter.sh/v1', 'NodePool')?.plural).toBe('nodepools');
    expect(findCrdDefinition('karpenter.outscale.sh/v1alpha1', 'OutscaleNodeClass')?.plural).toBe('outscalenodeclasses');
    expect(findCrdDefinition('karpenter.sh/v1beta1', 'NodePool')).toBeUndefined();
  });
});
