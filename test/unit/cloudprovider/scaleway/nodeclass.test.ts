import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { ScalewayNodeClassSpec } from '../../../../src/apis/v1alpha1/scaleway-nodeclass.js';
import type { ScalewayServer } from '../../../../src/cloudprovider/scaleway/api.js';
import {
  apiServerHostPort,
  driftReason,
  MissingJoinTokenError,
  renderUserData,
  userDataHash,
} from '../../../../src/cloudprovider/scaleway/nodeclass.js';
import { launchTags } from '../../../../src/cloudprovider/scaleway/tags.js';

const spec: ScalewayNodeClassSpec = {
  image: 'ubuntu_jammy',
  projectId: '11111111-1111-4111-8111-111111111111',
  zones: ['fr-par-1'],
  securityGroupId: '22222222-2222-4222-8222-222222222222',
  join: { apiServerEndpoint: 'https://k8s.example.com:6443', tokenSecretRef: { name: 'join', namespace: 'kube-system', key: 'token' } },
  tags: { team: 'ml' },
};

const input = {
  spec,
  joinToken: 'abcdef.0123456789abcdef',
  nodeName: 'gpu-1',
  providerID: 'scaleway://instance/fr-par-2/33333333-3333-4333-8333-333333333333',
  labels: { 'karpenter.sh/nodepool': 'gpu', 'node.kubernetes.io/instance-type': 'L4-1-24G' },
  taints: [
    { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
    { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
  ],
};

function joinConfigOf(userData: string): Record<string, unknown> {
  const cloudConfig = parse(userData.replace(/^#cloud-config\n/, '')) as { write_files: { path: string; content: string }[] };
  const file = cloudConfig.write_files.find((f) => f.path.endsWith('join.yaml'));
  return parse(file?.content ?? '') as Record<string, unknown>;
}

describe('Scaleway cloud-init join config', () => {
  it('is a kubeadm JoinConfiguration with token, node name, providerID, labels and taints', () => {
    const userData = renderUserData(input, 'gpu');
    expect(userData.startsWith('#cloud-config\n')).toBe(true);
    const join = joinConfigOf(userData) as {
      kind: string;
      discovery: { bootstrapToken: Record<string, unknown> };
      nodeRegistration: { name: string; taints: unknown[]; kubeletExtraArgs: { name: string; value: string }[] };
    };
    expect(join.kind).toBe('JoinConfiguration');
    expect(join.discovery.bootstrapToken).toMatchObject({ apiServerEndpoint: 'k8s.example.com:6443', token: 'abcdef.0123456789abcdef' });
    expect(join.nodeRegistration.name).toBe('gpu-1');
    expect(join.nodeRegistration.taints).toEqual([
      { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ]);
    expect(join.nodeRegistration.kubeletExtraArgs).toEqual([
      { name: 'provider-id', value: input.providerID },
      { name: 'node-labels', value: 'karpenter.sh/nodepool=gpu,node.kubernetes.io/instance-type=L4-1-24G' },
    ]);
  });

  it('with a CA bundle, discovers through a bootstrap kubeconfig carrying it', () => {
    const userData = renderUserData({ ...input, spec: { ...spec, join: { ...spec.join!, caBundle: 'Q0E=' } } }, 'gpu');
    expect((joinConfigOf(userData) as { discovery: Record<string, unknown> }).discovery).toHaveProperty('file');
    expect(userData).toContain('certificate-authority-data: Q0E=');
  });

  it('with user data too, is a multipart document carrying both', () => {
    const userData = renderUserData({ ...input, spec: { ...spec, userData: '#!/bin/sh\necho extra' } }, 'gpu');
    expect(userData).toMatch(/^Content-Type: multipart\/mixed/);
    expect(userData).toContain('Content-Type: text/x-shellscript');
    expect(userData).toContain('kind: JoinConfiguration');
  });

  it('without join, is the NodeClass user data as written', () => {
    const { join: _join, ...rest } = spec;
    expect(renderUserData({ ...input, spec: { ...rest, userData: '#cloud-config\nruncmd: [k3s]' } }, 'gpu')).toBe(
      '#cloud-config\nruncmd: [k3s]',
    );
  });

  it('refuses to render a join without a token', () => {
    const { joinToken: _t, ...noToken } = input;
    expect(() => renderUserData(noToken, 'gpu')).toThrow(MissingJoinTokenError);
  });

  it('cloud-config output is valid YAML', () => {
    expect(parseAllDocuments(renderUserData(input, 'gpu')).every((d) => d.errors.length === 0)).toBe(true);
  });

  it.each([
    ['https://k.example.com', 'k.example.com:443'],
    ['https://10.0.0.1:6443/', '10.0.0.1:6443'],
  ])('api server %s → %s', (url, hostPort) => {
    expect(apiServerHostPort(url)).toBe(hostPort);
  });
});

describe('Scaleway drift', () => {
  const server: ScalewayServer = {
    id: '33333333-3333-4333-8333-333333333333',
    name: 'gpu-1',
    zone: 'fr-par-1',
    commercialType: 'DEV1-S',
    state: 'running',
    stateDetail: '',
    tags: launchTags({
      clusterName: 'c',
      nodeClaimName: 'gpu-1',
      nodeClassName: 'gpu',
      image: spec.image,
      userDataHash: userDataHash(spec),
      extra: spec.tags,
    }),
    securityGroupId: spec.securityGroupId,
    privateNetworkIds: [],
    volumes: [],
    createdAt: 0,
  };

  it.each<[string, Partial<ScalewayNodeClassSpec>, string | undefined]>([
    ['nothing changed', {}, undefined],
    ['image', { image: 'debian_bookworm' }, 'ImageDrifted'],
    ['security group', { securityGroupId: '44444444-4444-4444-8444-444444444444' }, 'SecurityGroupDrifted'],
    ['placement group', { placementGroupId: '55555555-5555-4555-8555-555555555555' }, 'PlacementGroupDrifted'],
    ['private network', { privateNetworkId: '66666666-6666-4666-8666-666666666666' }, 'PrivateNetworkDrifted'],
    ['user data', { userData: '#!/bin/sh' }, 'UserDataDrifted'],
    ['join endpoint', { join: { ...spec.join!, apiServerEndpoint: 'https://other:6443' } }, 'UserDataDrifted'],
    ['tags', { tags: { team: 'web' } }, 'TagsDrifted'],
    ['zones only', { zones: ['fr-par-1', 'fr-par-2'] }, undefined],
  ])('%s → %s', (_name, change, reason) => {
    expect(driftReason(server, { ...spec, ...change })).toBe(reason);
  });

  it('user data hash ignores fields outside the boot config', () => {
    expect(userDataHash({ ...spec, image: 'other', tags: {} })).toBe(userDataHash(spec));
  });
});
