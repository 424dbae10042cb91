/**
 * What a Node, a NodeClaim or both offer to the scheduling simulation (upstream's StateNode Labels / Taints /
 * Allocatable). The one rule provisioning and consolidation share, so that capacity already paid for is
 * planned on by both and never provisioned twice:
 * - a NodeClaim counts from the moment it exists, launched or not, its Node joined or not;
 * - until its Node is registered, its labels are the NodeClaim's (what registration will copy to the Node)
 *   over the labels every candidate instance type carries, under the labels the kubelet already set;
 * - until it is initialized, its taints are the ones it will keep (no start-up or ephemeral taints), and its
 *   allocatable is the NodeClaim's (extended resources such as GPUs appear on the Node only once their
 *   device plugin runs); before launch, the smallest allocatable of its candidate types, so a pod planned
 *   there fits whichever type the cloud launches.
 * Pure.
 */
import type { V1Node } from '@kubernetes/client-node';
import { LabelHostname, LabelInstanceType, LabelNodePool, LabelNodeRegistered, type NodeClaim } from '../../apis/index.js';
import type { InstanceType, ResourceList } from '../instancetypes/types.js';
import { parseResourceList } from '../quantity/index.js';
import type { Taint } from '../requirements/index.js';
import type { ExistingNode, PodLike } from '../scheduling/types.js';
import { flavorDevices } from '../dra/flavor-devices.js';
import { singleValuedLabels } from './nodeclaim-template.js';
import { EphemeralTaintKeys } from './node-sync.js';

/** A Node, its NodeClaim, or both (ClusterState's StateNode, disruption's node) as the simulation reads it. */
export interface CapacitySource {
  name: string;
  node?: V1Node;
  nodeClaim?: NodeClaim;
  nodePool?: string;
  pods: readonly PodLike[];
  initialized: boolean;
  markedForDeletion?: boolean;
  pricePerHour?: number;
}

/** The instance types a NodeClaim may become, by name; unknown names are skipped. */
export type InstanceTypeLookup = (name: string) => InstanceType | undefined;

/** The simulation's view of `source`; undefined when nothing is known of its size yet (no type resolves). */
export function existingCapacity(source: CapacitySource, typeNamed: InstanceTypeLookup): ExistingNode | undefined {
  const { node, nodeClaim: claim } = source;
  if (!node && !claim) return undefined;
  const candidates = claim ? candidateTypes(claim, typeNamed) : [];
  const allocatable = allocatableOf(source, candidates);
  if (!allocatable) return undefined;
  const inFlight = claim !== undefined && !source.initialized;
  return {
    name: source.name,
    labels: labelsOf(source, candidates),
    taints: taintsOf(source),
    allocatable,
    pods: source.pods,
    ...(source.markedForDeletion ? { markedForDeletion: true } : {}),
    ...(inFlight ? { inFlight: true } : {}),
    ...(source.nodePool !== undefined ? { nodePool: source.nodePool } : {}),
    ...(source.pricePerHour !== undefined ? { pricePerHour: source.pricePerHour } : {}),
    ...deviceOptionsOf(candidates),
  };
}

/** The DRA devices each type it may become publishes (the simulation reads its ResourceSlices instead once published). */
function deviceOptionsOf(candidates: readonly InstanceType[]): Pick<ExistingNode, 'deviceOptions'> {
  const options = candidates.map((t) => flavorDevices(t));
  if (options.every((o) => o === undefined)) return {};
  return { deviceOptions: options.map((o) => (o ? [o] : [])) };
}

function registered(node: V1Node | undefined): boolean {
  return node?.metadata?.labels?.[LabelNodeRegistered] === 'true';
}

/** The types the claim's instance-type requirement allows (one once launched: its label says which). */
function candidateTypes(claim: NodeClaim, typeNamed: InstanceTypeLookup): InstanceType[] {
  const launched = claim.metadata?.labels?.[LabelInstanceType];
  const names =
    launched !== undefined
      ? [launched]
      : (claim.spec.requirements.find((r) => r.key === LabelInstanceType && r.operator === 'In')?.values ?? []);
  return names.flatMap((name) => typeNamed(name) ?? []);
}

function labelsOf(source: CapacitySource, candidates: readonly InstanceType[]): Record<string, string> {
  const { node, nodeClaim: claim } = source;
  const hostname = { [LabelHostname]: source.name };
  if (node && (!claim || registered(node))) return { ...hostname, ...(node.metadata?.labels ?? {}) };
  const claimLabels = claim
    ? {
        ...sharedLabels(candidates),
        ...singleValuedLabels(claim.spec.requirements),
        ...(claim.metadata?.labels ?? {}),
        ...(source.nodePool ? { [LabelNodePool]: source.nodePool } : {}),
      }
    : {};
  return { ...claimLabels, ...hostname, ...(node?.metadata?.labels ?? {}) };
}

/** Labels with the same value on every candidate type: the node will carry them whichever launches. */
function sharedLabels(types: readonly InstanceType[]): Record<string, string> {
  const [first, ...rest] = types;
  if (!first) return {};
  const shared: Record<string, string> = {};
  for (const [key, value] of Object.entries(first.labels)) if (rest.every((t) => t.labels[key] === value)) shared[key] = value;
  return shared;
}

function taintsOf(source: CapacitySource): Taint[] {
  const { node, nodeClaim: claim } = source;
  if (!claim) return (node?.spec?.taints ?? []) as Taint[];
  if (source.initialized && node) return (node.spec?.taints ?? []) as Taint[];
  // Not initialized: the taints it keeps once it is; before registration the Node has not got the claim's yet.
  const taints = (node && registered(node) ? node.spec?.taints : claim.spec.taints) ?? [];
  const startup = claim.spec.startupTaints ?? [];
  return (taints as Taint[]).filter(
    (t) => !EphemeralTaintKeys.includes(t.key) && !startup.some((s) => s.key === t.key && s.effect === t.effect),
  );
}

function allocatableOf(source: CapacitySource, candidates: readonly InstanceType[]): ResourceList | undefined {
  const { node, nodeClaim: claim } = source;
  const nodeAllocatable = node ? safeResources(node.status?.allocatable ?? node.status?.capacity) : undefined;
  if (!claim || (source.initialized && nodeAllocatable)) return nodeAllocatable;
  const claimed = claim.status?.allocatable ? safeResources(claim.status.allocatable) : undefined;
  return claimed ?? smallest(candidates.map((t) => t.allocatable)) ?? nodeAllocatable;
}

/** Per resource, the least any of the lists has (a resource missing from one counts as none). */
function smallest(lists: readonly ResourceList[]): ResourceList | undefined {
  const [first, ...rest] = lists;
  if (!first) return undefined;
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(first)) out[name] = rest.reduce((least, l) => Math.min(least, l[name] ?? 0), value);
  return out;
}

/** A malformed quantity on one object must not break every pass: it counts as nothing. */
function safeResources(list: Readonly<Record<string, string | number>> | undefined): ResourceList {
  try {
    return parseResourceList(list);
  } catch {
    return {};
  }
}
