/**
 * The chaos suite's invariants over one observed world: the cloud's instances, GPUs and pools next to the
 * cluster's NodeClaims, Nodes and pods. Pure: plain data in, violations out, so each rule is tested on
 * hand-built worlds (`invariants.test.ts`) before it is trusted to find nothing in a run.
 */

export type InstanceState = 'pending' | 'stopped' | 'running' | 'deleting' | 'gone';

export interface ObservedInstance {
  id: string;
  providerID?: string;
  state: InstanceState;
  /** The NodeClaim name the cloud records on the instance (tag), when the cloud records one. */
  claimTag?: string;
  /** Whether this cloud's instance must carry user data to join (MKS nodes take none). */
  needsUserData: boolean;
  hasUserData: boolean;
  gpuIds: string[];
}

export interface ObservedGpu {
  id: string;
  /** The instance it is linked to, if any. */
  vmId?: string;
  deleting: boolean;
}

export interface ObservedClaim {
  name: string;
  providerID?: string;
  deleting: boolean;
  /** Whether the claim asks for a GPU (its instance must then have one linked, where GPUs are separate). */
  wantsSeparateGpu: boolean;
}

export interface ObservedNode {
  name: string;
  providerID?: string;
  ready: boolean;
}

export interface ObservedPod {
  name: string;
  phase: string;
  /** The node it is bound to, once scheduled. */
  nodeName?: string;
}

export interface ObservedWorld {
  instances: ObservedInstance[];
  gpus: ObservedGpu[];
  claims: ObservedClaim[];
  nodes: ObservedNode[];
  pods: ObservedPod[];
}

export type ViolationKind =
  | 'pod-not-running'
  | 'duplicate-instance'
  | 'leaked-instance'
  | 'leaked-gpu'
  | 'wrong-deletion'
  | 'wrong-gpu-removal'
  | 'claim-not-ready'
  | 'write-after-lease-loss';

export interface Violation {
  kind: ViolationKind;
  subject: string;
  detail: string;
}

const live = (i: ObservedInstance): boolean => i.state !== 'deleting' && i.state !== 'gone';

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

/** Two live instances for one NodeClaim, or two live NodeClaims naming one instance. Holds at every instant. */
export function duplicates(world: ObservedWorld): Violation[] {
  const out: Violation[] = [];
  for (const [claim, instances] of groupBy(world.instances.filter(live), (i) => i.claimTag)) {
    if (instances.length > 1)
      out.push({
        kind: 'duplicate-instance',
        subject: claim,
        detail: `${instances.length} live instances carry nodeclaim ${claim}: ${instances.map((i) => i.id).join(', ')}`,
      });
  }
  for (const [providerID, claims] of groupBy(
    world.claims.filter((c) => !c.deleting),
    (c) => c.providerID,
  )) {
    if (claims.length > 1)
      out.push({
        kind: 'duplicate-instance',
        subject: providerID,
        detail: `${claims.length} live nodeclaims name ${providerID}: ${claims.map((c) => c.name).join(', ')}`,
      });
  }
  return out;
}

/** Instances no NodeClaim names, GPUs on no live instance. Only meaningful once the operator has converged. */
export function leaks(world: ObservedWorld): Violation[] {
  const named = new Set(world.claims.map((c) => c.providerID).filter((p): p is string => p !== undefined));
  const out: Violation[] = world.instances
    .filter((i) => live(i) && (i.providerID === undefined || !named.has(i.providerID)))
    .map((i) => ({
      kind: 'leaked-instance',
      subject: i.id,
      detail: `instance ${i.id} (${i.state}${i.claimTag ? `, tagged for ${i.claimTag}` : ''}) is named by no nodeclaim`,
    }));
  const liveIds = new Set(world.instances.filter(live).map((i) => i.id));
  for (const gpu of world.gpus) {
    if (gpu.deleting || (gpu.vmId !== undefined && liveIds.has(gpu.vmId))) continue;
    out.push({
      kind: 'leaked-gpu',
      subject: gpu.id,
      detail: `gpu ${gpu.id} is ${gpu.vmId ? `linked to ${gpu.vmId}, which is not live` : 'linked to no instance'}`,
    });
  }
  return out;
}

/** Every live NodeClaim has a running instance with what it needs to join, and a Ready Node for it. */
export function unreadyClaims(world: ObservedWorld): Violation[] {
  const byProvider = new Map(world.instances.filter(live).map((i) => [i.providerID, i]));
  const readyNodes = new Set(world.nodes.filter((n) => n.ready).map((n) => n.providerID));
  const out: Violation[] = [];
  for (const claim of world.claims.filter((c) => !c.deleting)) {
    const problem = claimProblem(claim, claim.providerID ? byProvider.get(claim.providerID) : undefined, readyNodes);
    if (problem) out.push({ kind: 'claim-not-ready', subject: claim.name, detail: `nodeclaim ${claim.name}: ${problem}` });
  }
  return out;
}

function claimProblem(
  claim: ObservedClaim,
  instance: ObservedInstance | undefined,
  readyNodes: Set<string | undefined>,
): string | undefined {
  if (!claim.providerID) return 'no providerID recorded';
  if (!instance) return `its instance ${claim.providerID} is not live`;
  if (instance.state !== 'running') return `its instance ${instance.id} is ${instance.state}, not running`;
  if (instance.needsUserData && !instance.hasUserData) return `its instance ${instance.id} has no user data`;
  if (claim.wantsSeparateGpu && instance.gpuIds.length === 0) return `its instance ${instance.id} has no gpu linked`;
  if (!readyNodes.has(claim.providerID)) return `no Ready node has providerID ${claim.providerID}`;
  return undefined;
}

export function podsNotRunning(world: ObservedWorld): Violation[] {
  return world.pods
    .filter((p) => p.phase !== 'Running')
    .map((p) => ({ kind: 'pod-not-running', subject: p.name, detail: `pod ${p.name} is ${p.phase}` }));
}

/**
 * Instances deleted between `before` (taken as a deleting request arrived, before the cloud acted) and `after`
 * although, in `before`, a live NodeClaim named them and their Node was Ready.
 */
export function wrongDeletions(before: ObservedWorld, after: ObservedWorld): Violation[] {
  const afterById = new Map(after.instances.map((i) => [i.id, i]));
  const readyNodes = new Set(before.nodes.filter((n) => n.ready).map((n) => n.providerID));
  const out: Violation[] = [];
  for (const instance of before.instances.filter((i) => live(i) && i.state === 'running')) {
    const now = afterById.get(instance.id);
    if (now && live(now)) continue;
    const owner = before.claims.find((c) => !c.deleting && c.providerID !== undefined && c.providerID === instance.providerID);
    if (!owner || !readyNodes.has(instance.providerID)) continue;
    out.push({
      kind: 'wrong-deletion',
      subject: instance.id,
      detail: `instance ${instance.id} was deleted while nodeclaim ${owner.name} was live and its node Ready`,
    });
  }
  return out;
}

/**
 * GPUs deleted or detached between `before` and `after` (taken as in wrongDeletions) although, in `before`, they
 * were linked to an instance a live NodeClaim named: the node would lose its accelerator under its pods.
 */
export function wrongGpuRemovals(before: ObservedWorld, after: ObservedWorld): Violation[] {
  const ownerOf = new Map<string, string>();
  for (const instance of before.instances.filter(live)) {
    const owner = before.claims.find((c) => !c.deleting && c.providerID !== undefined && c.providerID === instance.providerID);
    if (owner) ownerOf.set(instance.id, owner.name);
  }
  const afterById = new Map(after.gpus.map((g) => [g.id, g]));
  const out: Violation[] = [];
  for (const gpu of before.gpus) {
    const owner = gpu.vmId === undefined ? undefined : ownerOf.get(gpu.vmId);
    if (gpu.deleting || owner === undefined) continue;
    const now = afterById.get(gpu.id);
    if (now && now.vmId === gpu.vmId && !now.deleting) continue;
    out.push({
      kind: 'wrong-gpu-removal',
      subject: gpu.id,
      detail: `gpu ${gpu.id} was ${now ? 'detached from' : 'deleted from'} ${gpu.vmId} while nodeclaim ${owner} was live`,
    });
  }
  return out;
}

/** Live instances, and those among them whose Node runs a pod of the workload (the rest are surplus to it). */
export function instanceUse(world: ObservedWorld): { instances: number; hostingPods: number } {
  const running = world.instances.filter(live);
  const nodeProvider = new Map(world.nodes.map((n) => [n.name, n.providerID]));
  const hosting = new Set(world.pods.map((p) => (p.nodeName === undefined ? undefined : nodeProvider.get(p.nodeName))));
  return { instances: running.length, hostingPods: running.filter((i) => i.providerID !== undefined && hosting.has(i.providerID)).length };
}

/** What must hold once the operator has converged: everything. */
export function convergedViolations(world: ObservedWorld): Violation[] {
  return [...podsNotRunning(world), ...duplicates(world), ...leaks(world), ...unreadyClaims(world)];
}
