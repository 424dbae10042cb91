/**
 * A Service's cluster IP, as kube-apiserver's Service registry gives it: allocated on create from the service CIDR
 * (kubeadm's default 10.96.0.0/12) unless headless or ExternalName, checked when the client names one, and kept on
 * update (a write that omits it keeps the allocated one; changing it is refused). `helm install --wait` waits for it.
 */
import { invalid } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type ObjectStore } from './object-store.js';
import { type ResourceType } from './resource-type.js';

type Spec = Record<string, unknown>;

const cidrBase = (10 << 24) | (96 << 16);
const cidrSize = 1 << 20;

function ipOf(offset: number): string {
  const n = cidrBase + offset;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function offsetOf(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  const offset = (parts[0] ?? 0) * 2 ** 24 + (parts[1] ?? 0) * 2 ** 16 + (parts[2] ?? 0) * 2 ** 8 + (parts[3] ?? 0) - cidrBase;
  // The network and broadcast addresses are never handed out.
  return offset > 0 && offset < cidrSize - 1 ? offset : undefined;
}

function usedIps(store: ObjectStore): Set<string> {
  const used = new Set<string>();
  for (const svc of store.values('/services')) {
    const ip = (svc.spec as Spec | undefined)?.clusterIP;
    if (typeof ip === 'string') used.add(ip);
  }
  return used;
}

function defaultSpec(spec: Spec): void {
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.type === 'ExternalName') return;
  spec.internalTrafficPolicy ??= 'Cluster';
  for (const port of (spec.ports as Spec[] | undefined) ?? []) {
    port.protocol ??= 'TCP';
    port.targetPort ??= port.port;
  }
}

export function allocateClusterIp(type: ResourceType, service: KubeObject, store: ObjectStore, random: () => number): void {
  const spec = (service.spec ?? {}) as Spec;
  service.spec = spec;
  defaultSpec(spec);
  if (spec.type === 'ExternalName') return;
  const name = service.metadata.name ?? '';
  const requested = spec.clusterIP;
  if (requested === 'None') {
    spec.clusterIPs = ['None'];
  } else if (typeof requested === 'string' && requested !== '') {
    if (offsetOf(requested) === undefined)
      throw invalid(type, name, [
        {
          field: 'spec.clusterIPs',
          message: `Invalid value: []string{"${requested}"}: failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
        },
      ]);
    if (usedIps(store).has(requested))
      throw invalid(type, name, [
        {
          field: 'spec.clusterIPs',
          message: `Invalid value: []string{"${requested}"}: failed to allocate IP ${requested}: provided IP is already allocated`,
        },
      ]);
    spec.clusterIPs = [requested];
  } else {
    const used = usedIps(store);
    let ip = ipOf(1 + Math.floor(random() * (cidrSize - 2)));
    while (used.has(ip)) ip = ipOf(1 + Math.floor(random() * (cidrSize - 2)));
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
  }
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
}

/** An update keeps the allocated IP when it omits it; naming another is refused, as the field is immutable. */
export function keepClusterIp(type: ResourceType, next: KubeObject, current: KubeObject): void {
  const was = (current.spec as Spec | undefined)?.clusterIP;
  if (typeof was !== 'string') return;
  const spec = (next.spec ?? {}) as Spec;
  next.spec = spec;
  if (spec.clusterIP === undefined || spec.clusterIP === '') {
    spec.clusterIP = was;
    spec.clusterIPs = (current.spec as Spec).clusterIPs;
    return;
  }
  if (spec.clusterIP !== was)
    throw invalid(type, next.metadata.name ?? '', [
      { field: 'spec.clusterIPs[0]', message: `Invalid value: "${String(spec.clusterIP)}": may not change once set` },
    ]);
}
