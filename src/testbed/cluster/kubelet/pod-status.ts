/** The status a kubelet writes once a pod's containers are up: Running, Ready, an IP, one status per container. */
import { type V1Pod, type V1PodStatus } from '@kubernetes/client-node';

const iso = (ms: number): Date => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z') as unknown as Date;

export function runningStatus(pod: V1Pod, podIP: string, hostIP: string | undefined, now: number): V1PodStatus {
  const at = iso(now);
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null as unknown as Date, lastTransitionTime: at });
  return {
    phase: 'Running',
    podIP,
    podIPs: [{ ip: podIP }],
    ...(hostIP ? { hostIP, hostIPs: [{ ip: hostIP }] } : {}),
    startTime: at,
    qosClass: pod.status?.qosClass ?? 'BestEffort',
    conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
    containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: `${c.image ?? ''}@sha256:simulated`,
      containerID: `containerd://${pod.metadata?.uid ?? ''}-${c.name}`,
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
    })),
  };
}

/** Hands out pod IPs from a per-node /24, as a CNI with host-local IPAM would. */
export class PodIpAllocator {
  private readonly nodeBlocks = new Map<string, { block: number; next: number }>();
  private nextBlock = 0;

  allocate(nodeName: string): string {
    let entry = this.nodeBlocks.get(nodeName);
    if (!entry) {
      entry = { block: this.nextBlock++, next: 2 };
      this.nodeBlocks.set(nodeName, entry);
    }
    const host = entry.next;
    entry.next = host >= 254 ? 2 : host + 1;
    return `10.${100 + (Math.floor(entry.block / 256) % 100)}.${entry.block % 256}.${host}`;
  }

  release(nodeName: string): void {
    this.nodeBlocks.delete(nodeName);
  }
}
