/**
 * Host ports a pod holds on its node, and whether two of them clash (Karpenter scheduling.HostPortUsage):
 * same protocol and port, and the same IP or either one unspecified (0.0.0.0 / ::).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

export interface HostPort {
  ip: string;
  port: number;
  protocol: string;
}

type PodLike = { spec?: Pick<NonNullable<V1Pod['spec']>, 'containers' | 'initContainers'> };

/** Host ports of the app containers and of sidecars (restartable init containers, which keep running). */
export function podHostPorts(pod: PodLike): HostPort[] {
  const running: Pick<V1Container, 'ports'>[] = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  const ports: HostPort[] = [];
  for (const container of running) {
    for (const p of container.ports ?? []) {
      if (!p.hostPort) continue;
      ports.push({ ip: p.hostIP || '0.0.0.0', port: p.hostPort, protocol: p.protocol || 'TCP' });
    }
  }
  return ports;
}

function isUnspecified(ip: string): boolean {
  return ip === '0.0.0.0' || ip === '::' || ip === '0:0:0:0:0:0:0:0';
}

export function hostPortsClash(a: HostPort, b: HostPort): boolean {
  if (a.protocol !== b.protocol || a.port !== b.port) return false;
  return a.ip === b.ip || isUnspecified(a.ip) || isUnspecified(b.ip);
}

/** The first pair (wanted, used) that clashes, else undefined. */
export function firstHostPortConflict(wanted: readonly HostPort[], used: readonly HostPort[]): [HostPort, HostPort] | undefined {
  for (const w of wanted) {
    for (const u of used) if (hostPortsClash(w, u)) return [w, u];
  }
  return undefined;
}
