/**
 * What the ScalewayNodeClass means for one server: the cloud-init that joins it to the cluster (kubeadm
 * JoinConfiguration with the bootstrap token from a Secret, the CA, the node's labels, taints and
 * providerID), and why a launched server no longer matches its NodeClass (drift).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { ScalewayNodeClassSpec } from '../../apis/v1alpha1/scaleway-nodeclass.js';
import type { DriftReason } from '../types.js';
import type { ScalewayServer } from './api.js';
import { TagImage, TagUserDataHash, tag, tagValue } from './tags.js';

export interface NodeTaint {
  key: string;
  value?: string;
  effect: string;
}

export interface JoinInput {
  spec: ScalewayNodeClassSpec;
  /** The bootstrap token read from `spec.join.tokenSecretRef` (`abcdef.0123456789abcdef`). */
  joinToken?: string;
  nodeName: string;
  providerID: string;
  labels: Readonly<Record<string, string>>;
  taints: readonly NodeTaint[];
}

const JoinConfigPath = '/etc/kubernetes/karpenter-eu/join.yaml';
const BootstrapKubeconfigPath = '/etc/kubernetes/karpenter-eu/bootstrap.kubeconfig';
const Boundary = 'karpenter-eu-boundary';

/** Bare `host:port` of the API server URL, as kubeadm wants it. */
export function apiServerHostPort(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.hostname}:${url.port || '443'}`;
}

function bootstrapKubeconfig(endpoint: string, caBundle: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'cluster', cluster: { server: endpoint, 'certificate-authority-data': caBundle } }],
    users: [{ name: 'bootstrap', user: { token } }],
    contexts: [{ name: 'bootstrap', context: { cluster: 'cluster', user: 'bootstrap' } }],
    'current-context': 'bootstrap',
  });
}

function discovery(join: NonNullable<ScalewayNodeClassSpec['join']>, token: string): Record<string, unknown> {
  if (join.caBundle) return { file: { kubeConfigPath: BootstrapKubeconfigPath }, tlsBootstrapToken: token };
  const apiServerEndpoint = apiServerHostPort(join.apiServerEndpoint);
  if (join.caCertHashes?.length)
    return { bootstrapToken: { apiServerEndpoint, token, caCertHashes: [...join.caCertHashes] }, tlsBootstrapToken: token };
  // Without a CA or its hash the signed cluster-info ConfigMap is trusted through the token's JWS signature
  // alone; admission warns and the NodeClass's JoinCAPinned condition says so.
  return {
    bootstrapToken: { apiServerEndpoint: apiServerHostPort(join.apiServerEndpoint), token, unsafeSkipCAVerification: true },
    tlsBootstrapToken: token,
  };
}

function joinConfiguration(input: JoinInput, join: NonNullable<ScalewayNodeClassSpec['join']>, token: string): string {
  const labels = Object.entries(input.labels)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join(',');
  return stringify({
    apiVersion: 'kubeadm.k8s.io/v1beta4',
    kind: 'JoinConfiguration',
    discovery: discovery(join, token),
    nodeRegistration: {
      name: input.nodeName,
      taints: input.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
      kubeletExtraArgs: [
        { name: 'provider-id', value: input.providerID },
        { name: 'node-labels', value: labels },
      ],
    },
  });
}

function joinCloudConfig(input: JoinInput, join: NonNullable<ScalewayNodeClassSpec['join']>, token: string): string {
  const files = [{ path: JoinConfigPath, permissions: '0600', content: joinConfiguration(input, join, token) }];
  if (join.caBundle)
    files.push({
      path: BootstrapKubeconfigPath,
      permissions: '0600',
      content: bootstrapKubeconfig(join.apiServerEndpoint, join.caBundle, token),
    });
  return `#cloud-config\n${stringify({ write_files: files, runcmd: [['kubeadm', 'join', '--config', JoinConfigPath]] })}`;
}

function multipart(parts: { type: string; content: string }[]): string {
  const body = parts.map((p) => `--${Boundary}\nContent-Type: ${p.type}; charset="utf-8"\n\n${p.content}\n`).join('');
  return `Content-Type: multipart/mixed; boundary="${Boundary}"\nMIME-Version: 1.0\n\n${body}--${Boundary}--\n`;
}

function contentType(userData: string): string {
  if (userData.startsWith('#cloud-config')) return 'text/cloud-config';
  if (userData.startsWith('#!')) return 'text/x-shellscript';
  return 'text/plain';
}

export class MissingJoinTokenError extends Error {
  constructor(nodeClassName: string) {
    super(
      `rendering user data: ScalewayNodeClass "${nodeClassName}" sets spec.join but its token Secret gave no token; accepted: a bootstrap token such as abcdef.0123456789abcdef`,
    );
    this.name = 'MissingJoinTokenError';
  }
}

/**
 * The `cloud-init` user data of a server: the join config alone, the NodeClass's `userData` alone, or both
 * as a multipart document (cloud-init runs each part).
 */
export function renderUserData(input: JoinInput, nodeClassName: string): string {
  const { join, userData } = input.spec;
  if (!join) return userData ?? '';
  if (!input.joinToken) throw new MissingJoinTokenError(nodeClassName);
  const joinPart = joinCloudConfig(input, join, input.joinToken);
  if (!userData) return joinPart;
  return multipart([
    { type: 'text/cloud-config', content: joinPart },
    { type: contentType(userData), content: userData },
  ]);
}

/** A short hash of what the NodeClass puts in user data (not per-node values): its drift fingerprint. */
export function userDataHash(spec: ScalewayNodeClassSpec): string {
  const fingerprint = JSON.stringify({ join: spec.join ?? null, userData: spec.userData ?? null });
  return createHash('sha256').update(fingerprint).digest('hex').slice(0, 16);
}

/** Why the server no longer matches the NodeClass, checked in this order; undefined when it still does. */
export function driftReason(server: ScalewayServer, spec: ScalewayNodeClassSpec): DriftReason | undefined {
  const launchedImage = tagValue(server.tags, TagImage);
  if (launchedImage !== undefined && launchedImage !== spec.image) return 'ImageDrifted';
  if (spec.securityGroupId && server.securityGroupId !== spec.securityGroupId) return 'SecurityGroupDrifted';
  if ((spec.placementGroupId ?? undefined) !== (server.placementGroupId ?? undefined)) return 'PlacementGroupDrifted';
  if (spec.privateNetworkId && !server.privateNetworkIds.includes(spec.privateNetworkId)) return 'PrivateNetworkDrifted';
  const launchedHash = tagValue(server.tags, TagUserDataHash);
  if (launchedHash !== undefined && launchedHash !== userDataHash(spec)) return 'UserDataDrifted';
  const missingTag = Object.entries(spec.tags ?? {}).some(([k, v]) => !server.tags.includes(tag(k, v)));
  if (missingTag) return 'TagsDrifted';
  return undefined;
}
