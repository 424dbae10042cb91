/**
 * Whether a drained node may be handed to the cloud for deletion yet (upstream's awaitVolumeDetachment):
 * deleting an instance while the CSI driver still has a volume attached to it can corrupt the volume or leave it
 * stuck "in use" for the pod's next node. So after the drain, termination waits until the node's
 * VolumeAttachments are gone — except those of volumes used by pods that stay on the node (DaemonSet pods and
 * pods tolerating the disrupted taint are never evicted, so their volumes never detach) — and stops waiting
 * once the terminationGracePeriod deadline has passed.
 */
export interface VolumeAttachmentFacts {
  name: string;
  nodeName: string;
  /** spec.source.persistentVolumeName; undefined for inline volumes. */
  persistentVolumeName?: string;
}

export interface VolumeDetachmentInput {
  nodeName: string;
  attachments: readonly VolumeAttachmentFacts[];
  /** PersistentVolume names used by the pods still on the drained node (they will not leave it). */
  volumesOfRemainingPods: ReadonlySet<string>;
  now: number;
  terminationDeadline?: number;
}

export type VolumeDetachment =
  | { kind: 'detached' }
  | { kind: 'waiting'; attachments: string[] }
  /** Still attached, but the grace period is over: delete anyway, as upstream does. */
  | { kind: 'deadline-passed'; attachments: string[] };

export function volumeDetachment(input: VolumeDetachmentInput): VolumeDetachment {
  const blocking = input.attachments
    .filter((a) => a.nodeName === input.nodeName)
    .filter((a) => a.persistentVolumeName === undefined || !input.volumesOfRemainingPods.has(a.persistentVolumeName))
    .map((a) => a.name)
    .sort();
  if (blocking.length === 0) return { kind: 'detached' };
  if (input.terminationDeadline !== undefined && input.now >= input.terminationDeadline)
    return { kind: 'deadline-passed', attachments: blocking };
  return { kind: 'waiting', attachments: blocking };
}

interface PodVolumeSource {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  ephemeral?: unknown;
}

/** The PVC names (in the pod's namespace) a pod mounts: claims by name, and generic ephemeral volumes (`<pod>-<volume>`). */
export function claimNamesOfPod(pod: { metadata?: { name?: string }; spec?: { volumes?: readonly PodVolumeSource[] } }): string[] {
  const out: string[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    if (volume.persistentVolumeClaim?.claimName) out.push(volume.persistentVolumeClaim.claimName);
    else if (volume.ephemeral !== undefined && pod.metadata?.name) out.push(`${pod.metadata.name}-${volume.name}`);
  }
  return out;
}
