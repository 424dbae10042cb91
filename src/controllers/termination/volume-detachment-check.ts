/**
 * Reads what volumeDetachment() decides on: the VolumeAttachments naming the node, and the PersistentVolumes of
 * the pods still on it (through their claims). A cluster that does not let us list VolumeAttachments (RBAC of a
 * hand-made install, an API server without storage.k8s.io) cannot be waited on: that is reported and the
 * termination goes on, rather than holding every node forever.
 */
import type { V1PersistentVolumeClaim, V1VolumeAttachment } from '@kubernetes/client-node';
import { claimNamesOfPod, volumeDetachment, type VolumeDetachment } from '../../domain/termination/index.js';
import { findKubeError, KubeForbidden, KubeNotFound } from '../../kube/errors.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { ClusterState } from '../../state/cluster-state.js';

export type VolumeCheck = VolumeDetachment | { kind: 'unavailable'; error: Error };

async function persistentVolumesOfRemainingPods(kube: Kube, state: ClusterState, nodeName: string): Promise<Set<string>> {
  const volumes = new Set<string>();
  for (const pod of state.podsOnNode(nodeName)) {
    const namespace = pod.metadata?.namespace ?? 'default';
    for (const claimName of claimNamesOfPod(pod as Parameters<typeof claimNamesOfPod>[0])) {
      const claim = await kube
        .get<V1PersistentVolumeClaim>(Resources.PersistentVolumeClaim, { name: claimName, namespace })
        .catch((error: unknown) => {
          if (findKubeError(error, KubeNotFound)) return undefined;
          throw error;
        });
      if (claim?.spec?.volumeName) volumes.add(claim.spec.volumeName);
    }
  }
  return volumes;
}

export async function checkVolumeDetachment(
  kube: Kube,
  state: ClusterState,
  nodeName: string,
  now: number,
  terminationDeadline: number | undefined,
): Promise<VolumeCheck> {
  let attachments: V1VolumeAttachment[];
  try {
    attachments = (await kube.list<V1VolumeAttachment>(Resources.VolumeAttachment)).items.filter((a) => a.spec?.nodeName === nodeName);
  } catch (error) {
    if (findKubeError(error, KubeForbidden) || findKubeError(error, KubeNotFound)) return { kind: 'unavailable', error: error as Error };
    throw error;
  }
  if (attachments.length === 0) return { kind: 'detached' };
  return volumeDetachment({
    nodeName,
    attachments: attachments.map((a) => ({
      name: a.metadata?.name ?? '',
      nodeName: a.spec?.nodeName ?? '',
      persistentVolumeName: a.spec?.source?.persistentVolumeName,
    })),
    volumesOfRemainingPods: await persistentVolumesOfRemainingPods(kube, state, nodeName),
    now,
    ...(terminationDeadline !== undefined ? { terminationDeadline } : {}),
  });
}
