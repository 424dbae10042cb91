/**
 * One scheduling cycle of the DynamicResources plugin: PreEnqueue (every claim of the pod exists, is not being
 * deleted and, when generated from a template, belongs to the pod), PreFilter (the DeviceClasses its pending
 * requests name exist), Filter per node (an allocated claim's node selector admits the node; the pending
 * claims can be allocated there together) and Reserve (the allocation and the pod's reservation are assumed
 * at once, so the next pod of the same cycle sees those devices taken and the shared claim allocated).
 */
import { type V1Node, type V1NodeSelector, type V1Pod } from '@kubernetes/client-node';
import { allocateOnNode } from './allocator.js';
import {
  type AllocationResult,
  type CandidateDevice,
  type DeviceSelectorMatcher,
  deviceId,
  type WireDeviceClass,
  type WireResourceClaim,
  type WireResourceSlice,
} from './types.js';

export const ReasonCannotAllocate = 'cannot allocate all claims';
export const ReasonClaimNotOnNode = 'resourceclaim not available on the node';

export interface PodClaims {
  /** Why the pod is not tried at all (PreEnqueue), or fails on every node (PreFilter). */
  gate?: { stage: 'preEnqueue' | 'preFilter'; message: string };
  claims: WireResourceClaim[];
  /** Allocations found per node name by filter, for the pending claims in `claims` order. */
  byNode: Map<string, AllocationResult[]>;
}

interface PodClaimEntry {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

export function podClaimEntries(pod: V1Pod): PodClaimEntry[] {
  return (pod.spec?.resourceClaims ?? []) as PodClaimEntry[];
}

function claimNameOf(pod: V1Pod, entry: PodClaimEntry): string | undefined {
  if (entry.resourceClaimName) return entry.resourceClaimName;
  return pod.status?.resourceClaimStatuses?.find((s) => s.name === entry.name)?.resourceClaimName;
}

/** matchFields on metadata.name and matchExpressions on labels, as a node selector term is matched. */
export function nodeSelectorAdmits(selector: V1NodeSelector | undefined, node: V1Node): boolean {
  if (!selector) return true;
  const labels = node.metadata?.labels ?? {};
  return selector.nodeSelectorTerms.some(
    (term) =>
      (term.matchFields ?? []).every(
        (f) => f.key === 'metadata.name' && (f.operator === 'In') === (f.values ?? []).includes(node.metadata?.name ?? ''),
      ) &&
      (term.matchExpressions ?? []).every((e) => {
        const value = labels[e.key];
        if (e.operator === 'Exists') return value !== undefined;
        if (e.operator === 'DoesNotExist') return value === undefined;
        const listed = value !== undefined && (e.values ?? []).includes(value);
        return e.operator === 'In' ? listed : e.operator === 'NotIn' ? !listed : false;
      }),
  );
}

/** The devices of the newest generation of each pool published for a node. */
function devicesByNode(slices: readonly WireResourceSlice[]): Map<string, CandidateDevice[]> {
  const newest = new Map<string, number>();
  for (const s of slices) {
    const pool = `${s.spec.driver}/${s.spec.pool.name}`;
    newest.set(pool, Math.max(newest.get(pool) ?? 0, s.spec.pool.generation));
  }
  const out = new Map<string, CandidateDevice[]>();
  for (const s of slices) {
    if (!s.spec.nodeName || newest.get(`${s.spec.driver}/${s.spec.pool.name}`) !== s.spec.pool.generation) continue;
    const list = out.get(s.spec.nodeName) ?? [];
    for (const device of s.spec.devices ?? []) list.push({ driver: s.spec.driver, pool: s.spec.pool.name, device });
    out.set(s.spec.nodeName, list);
  }
  return out;
}

export class DraCycle {
  private readonly devices: Map<string, CandidateDevice[]>;
  private readonly classes: Map<string, WireDeviceClass>;
  private readonly inUse = new Set<string>();
  private readonly prepared = new Map<string, PodClaims>();

  constructor(
    private readonly claims: Map<string, WireResourceClaim>,
    slices: readonly WireResourceSlice[],
    classes: readonly WireDeviceClass[],
    private readonly matches: DeviceSelectorMatcher,
    private readonly onAssume: (claim: WireResourceClaim) => void,
  ) {
    this.devices = devicesByNode(slices);
    this.classes = new Map(classes.map((c) => [c.metadata.name ?? '', c]));
    for (const claim of claims.values()) for (const r of claim.status?.allocation?.devices.results ?? []) this.inUse.add(deviceId(r));
  }

  /** PreEnqueue and PreFilter, once per pod in the cycle. */
  prepare(pod: V1Pod): PodClaims {
    const uid = pod.metadata?.uid ?? '';
    let prepared = this.prepared.get(uid);
    if (!prepared) {
      prepared = this.resolve(pod);
      this.prepared.set(uid, prepared);
    }
    return prepared;
  }

  private resolve(pod: V1Pod): PodClaims {
    const out: PodClaims = { claims: [], byNode: new Map() };
    const namespace = pod.metadata?.namespace ?? '';
    for (const entry of podClaimEntries(pod)) {
      const name = claimNameOf(pod, entry);
      if (!name)
        return {
          ...out,
          gate: { stage: 'preEnqueue', message: `pod "${namespace}/${pod.metadata?.name ?? ''}": ResourceClaim not created yet` },
        };
      const claim = this.claims.get(`${namespace}/${name}`);
      if (!claim) return { ...out, gate: { stage: 'preEnqueue', message: `resourceclaim "${name}" not found` } };
      if (claim.metadata.deletionTimestamp)
        return { ...out, gate: { stage: 'preEnqueue', message: `resourceclaim "${name}" is being deleted` } };
      const owner = claim.metadata.ownerReferences?.find((r) => r.controller);
      if (entry.resourceClaimTemplateName && owner?.uid !== pod.metadata?.uid) {
        return {
          ...out,
          gate: {
            stage: 'preEnqueue',
            message: `ResourceClaim ${namespace}/${name} was not created for pod ${namespace}/${pod.metadata?.name ?? ''} (pod is not owner)`,
          },
        };
      }
      out.claims.push(claim);
    }
    const missingClass = this.missingClass(out.claims);
    return missingClass ? { ...out, gate: { stage: 'preFilter', message: missingClass } } : out;
  }

  private missingClass(claims: readonly WireResourceClaim[]): string | undefined {
    for (const claim of claims) {
      if (claim.status?.allocation) continue;
      for (const request of claim.spec.devices?.requests ?? []) {
        const names = request.exactly ? [request.exactly.deviceClassName] : (request.firstAvailable ?? []).map((s) => s.deviceClassName);
        const missing = names.find((n) => !this.classes.has(n));
        if (missing !== undefined) return `request ${request.name}: device class ${missing} does not exist`;
      }
    }
    return undefined;
  }

  /** The plugin's Filter: no reasons when the node can hold every claim of the pod. */
  filter(podClaims: PodClaims, node: V1Node): string[] {
    if (podClaims.claims.length === 0) return [];
    const nodeName = node.metadata?.name ?? '';
    if (podClaims.claims.some((c) => c.status?.allocation && !nodeSelectorAdmits(c.status.allocation.nodeSelector, node)))
      return [ReasonClaimNotOnNode];
    const pending = podClaims.claims.filter((c) => !c.status?.allocation);
    if (pending.length === 0) return [];
    const allocations = allocateOnNode({
      nodeName,
      claims: pending,
      devices: this.devices.get(nodeName) ?? [],
      inUse: this.inUse,
      classes: this.classes,
      matches: this.matches,
    });
    if (!allocations) return [ReasonCannotAllocate];
    podClaims.byNode.set(nodeName, allocations);
    return [];
  }

  /** Reserve: the claims as they are to be written for the pod on the node (allocated and reserved for it). */
  reserve(pod: V1Pod, podClaims: PodClaims, nodeName: string): WireResourceClaim[] {
    const allocations = podClaims.byNode.get(nodeName) ?? [];
    let pendingIndex = 0;
    const consumer = { resource: 'pods', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
    return podClaims.claims.map((claim) => {
      const allocation = claim.status?.allocation ?? allocations[pendingIndex++];
      const reservedFor = claim.status?.reservedFor ?? [];
      const next: WireResourceClaim = {
        ...claim,
        status: {
          ...claim.status,
          ...(allocation ? { allocation } : {}),
          reservedFor: reservedFor.some((r) => r.uid === consumer.uid) ? reservedFor : [...reservedFor, consumer],
        },
      };
      for (const r of allocation?.devices.results ?? []) this.inUse.add(deviceId(r));
      this.claims.set(`${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`, next);
      this.onAssume(next);
      return next;
    });
  }
}
