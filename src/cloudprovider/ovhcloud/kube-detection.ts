/**
 * Finds which MKS cluster of a Public Cloud project this Kubernetes cluster is, when neither the NodeClass nor
 * the operator names it: the one cluster of the project whose nodes' instance ids are among this cluster's
 * `openstack:///<instanceId>` providerIDs. Several matches, or none, are refused with the candidates named:
 * launching into the wrong cluster would bill nodes that never join this one.
 */
import { NodeClassNotReadyError } from '../errors.js';
import type { OvhApi } from './api.js';

const OpenStackPrefix = 'openstack:///';

/** The MKS cluster could not be told: a NodeClass status reason of its own, not a credentials problem. */
export class KubeIdNotDetectedError extends NodeClassNotReadyError {}

/** The instance ids behind this cluster's OpenStack providerIDs. */
export function openStackInstanceIds(providerIDs: readonly string[]): Set<string> {
  return new Set(
    providerIDs
      .filter((id) => id.startsWith(OpenStackPrefix))
      .map((id) => id.slice(OpenStackPrefix.length))
      .filter((id) => id !== ''),
  );
}

export async function detectKubeId(api: OvhApi, serviceName: string, providerIDs: readonly string[]): Promise<string> {
  const what = `detecting the MKS cluster (kubeId) of project ${serviceName}`;
  const fix = 'set spec.kubeId on the OVHNodeClass or OVH_KUBE_ID (chart value ovh.kubeId)';
  const ours = openStackInstanceIds(providerIDs);
  if (ours.size === 0)
    throw new KubeIdNotDetectedError(`${what}: no Node of this cluster has an ${OpenStackPrefix} providerID to match; ${fix}`);
  const clusters = await api.listClusters(serviceName);
  const matching: string[] = [];
  for (const kubeId of clusters) {
    const nodes = await api.listNodes({ serviceName, kubeId });
    if (nodes.some((n) => n.instanceId !== null && ours.has(n.instanceId))) matching.push(kubeId);
  }
  if (matching.length === 1) return matching[0] as string;
  if (matching.length === 0) {
    throw new KubeIdNotDetectedError(
      `${what}: none of its ${clusters.length} cluster(s) (${clusters.join(', ') || 'none'}) has a node of this cluster; ${fix}`,
    );
  }
  throw new KubeIdNotDetectedError(
    `${what}: several clusters have nodes of this cluster (${matching.join(', ')}), refusing to guess; ${fix}`,
  );
}
