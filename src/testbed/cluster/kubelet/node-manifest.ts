/** The Node object a kubelet registers for a cloud instance, and the status/taint changes it goes through. */
import { type V1Node, type V1NodeCondition, type V1Taint } from '@kubernetes/client-node';
import { LabelArch, LabelHostname, LabelInstanceType, LabelOS, LabelTopologyRegion, LabelTopologyZone } from '../../../apis/v1/labels.js';
import { canonicalQuantity, parseQuantity, subtractQuantities } from '../../../domain/quantity/index.js';
import { type CloudInstance } from './instance-source.js';

export const TaintNotReady = 'node.kubernetes.io/not-ready';
export const TaintUnreachable = 'node.kubernetes.io/unreachable';
/** The kubelet's default `evictionHard: memory.available<100Mi` comes off allocatable. */
export const DefaultReserved: Readonly<Record<string, string>> = { memory: '100Mi' };

export function allocatableOf(capacity: Record<string, string>, reserved: Record<string, string>): Record<string, string> {
  const allocatable: Record<string, string> = { ...capacity };
  for (const [name, amount] of Object.entries(reserved)) {
    const total = capacity[name];
    if (total === undefined) continue;
    const left = subtractQuantities(parseQuantity(total), parseQuantity(amount));
    allocatable[name] = left.nanos < 0n ? '0' : canonicalQuantity(left);
  }
  return allocatable;
}

const isoSeconds = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function readyCondition(status: 'True' | 'False' | 'Unknown', reason: string, message: string, now: number): V1NodeCondition {
  const at = isoSeconds(now) as unknown as Date;
  return { type: 'Ready', status, reason, message, lastHeartbeatTime: at, lastTransitionTime: at };
}

export function nodeFor(
  instance: CloudInstance,
  reserved: Record<string, string>,
  now: number,
  devices: Record<string, string> = {},
): V1Node {
  const labels: Record<string, string> = {
    ...instance.labels,
    [LabelHostname]: instance.nodeName,
    [LabelArch]: instance.arch,
    [LabelOS]: 'linux',
    [LabelInstanceType]: instance.instanceType,
    [LabelTopologyZone]: instance.zone,
    [LabelTopologyRegion]: instance.region,
  };
  const taints: V1Taint[] = [{ key: TaintNotReady, effect: 'NoSchedule' }, ...instance.taints.filter((t) => t.key !== TaintNotReady)];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: instance.nodeName, labels },
    spec: { providerID: instance.providerID, taints },
    status: {
      capacity: { ...instance.capacity, ...devices },
      allocatable: { ...(instance.allocatable ?? allocatableOf(instance.capacity, reserved)), ...devices },
      conditions: [readyCondition('False', 'KubeletNotReady', 'container runtime network not ready: NetworkReady=false', now)],
      addresses: [
        ...(instance.internalIP ? [{ type: 'InternalIP', address: instance.internalIP }] : []),
        { type: 'Hostname', address: instance.nodeName },
      ],
      nodeInfo: {
        architecture: instance.arch,
        operatingSystem: 'linux',
        kubeletVersion: 'v1.33.0',
        kubeProxyVersion: 'v1.33.0',
        containerRuntimeVersion: 'containerd://2.0.0',
        kernelVersion: '6.8.0',
        osImage: 'Ubuntu 24.04 LTS',
        bootID: instance.providerID,
        machineID: instance.providerID,
        systemUUID: instance.providerID,
      },
    },
  };
}

/** Taints with `key` removed (or added when `add` is given and missing). */
export function withoutTaint(taints: readonly V1Taint[] | undefined, key: string): V1Taint[] {
  return (taints ?? []).filter((t) => t.key !== key);
}

export function withTaint(taints: readonly V1Taint[] | undefined, taint: V1Taint): V1Taint[] {
  return [...withoutTaint(taints, taint.key), taint];
}
