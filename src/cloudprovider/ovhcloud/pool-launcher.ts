/**
 * Turning one NodeClaim into one MKS node: under the pool family's lock, record the claim on the pool and
 * raise `desiredNodes` by one in the same PUT (or create the pool with `desiredNodes: 1`); then, outside
 * the lock, wait for the node MKS adds and bind it to the claim. A retried or restarted create finds the
 * record and waits for the same node, so one NodeClaim never yields two nodes.
 */
import { MksPoolsPerFamily } from '../../domain/admission/rules/anti-affinity.js';
import type { Clock } from '../../util/clock.js';
import { CreateError, PermanentCloudError, type OfferingKey } from '../errors.js';
import type { OvhAccount } from './accounts.js';
import type { OvhNode, OvhNodePool, OvhPoolTemplate } from './api.js';
import type { OvhCaller } from './calls.js';
import { matchPendingClaims } from './claim-matching.js';
import { NodeFailureStatuses, isOvhNotFound, nodeFailureError, ovhStatusOf } from './errors.js';
import type { KeyedLock } from './keyed-lock.js';
import {
  claimRecordsOf,
  familyOfPoolName,
  formatClaimRecord,
  isManagedPool,
  LabelPoolVariant,
  poolBaseName,
  poolNameAt,
  poolStem,
  poolTemplate,
  poolVariant,
  type ClaimRecord,
  type PoolSettings,
} from './pool-naming.js';

export interface PoolLaunchDeps {
  account: OvhAccount;
  /** Pools of other clusters in the same MKS cluster are never scaled or taken for ours. */
  clusterName: string;
  call: OvhCaller;
  clock: Clock;
  lock: KeyedLock;
  /** How often a launching pool's nodes are read. */
  pollIntervalMs: number;
  /** How long a node may take to get its instance id (GPU nodes can take long on MKS). */
  launchTimeoutMs: number;
  /** MKS: an anti-affinity pool holds at most 5 nodes. */
  maxAntiAffinityNodes: number;
}

/** Pools of more than this many families are not created (MKS default maxNodes). */
const DefaultMaxNodes = 100;

export function familyLockKey(account: OvhAccount, family: string): string {
  return `${account.key}/${family}`;
}

function withRecord(template: OvhPoolTemplate, claimKey: string, record: ClaimRecord | undefined): OvhPoolTemplate {
  const annotations = { ...template.metadata.annotations };
  if (record) annotations[claimKey] = formatClaimRecord(record);
  else delete annotations[claimKey];
  return { metadata: { ...template.metadata, annotations }, spec: template.spec };
}

async function listPools(deps: PoolLaunchDeps): Promise<OvhNodePool[]> {
  return deps.call(`listing node pools of cluster ${deps.account.target.kubeId}`, () =>
    deps.account.api.listNodePools(deps.account.target),
  );
}

/** A new pool may stay invisible for a while (eventual consistency): wait until a listing shows it. */
async function waitVisible(deps: PoolLaunchDeps, name: string): Promise<OvhNodePool> {
  const deadline = deps.clock.now() + deps.launchTimeoutMs;
  for (;;) {
    const pool = (await listPools(deps)).find((p) => p.name === name);
    if (pool) return pool;
    if (deps.clock.now() >= deadline)
      throw new CreateError(`waiting for node pool ${name}: it exists but never became visible`, {
        reason: 'NodePoolNotVisible',
        message: `node pool ${name} not visible after ${deps.launchTimeoutMs} ms`,
      });
    await deps.clock.sleep(deps.pollIntervalMs);
  }
}

async function createPool(
  deps: PoolLaunchDeps,
  settings: PoolSettings,
  name: string,
  claimKey: string,
  pending: ClaimRecord,
): Promise<OvhNodePool> {
  const body = {
    name,
    flavorName: settings.flavor,
    desiredNodes: 1,
    minNodes: 0,
    maxNodes: settings.antiAffinity ? deps.maxAntiAffinityNodes : DefaultMaxNodes,
    autoscale: false,
    monthlyBilled: settings.monthlyBilled,
    antiAffinity: settings.antiAffinity,
    availabilityZones: [settings.zone],
    template: poolTemplate(settings, { [claimKey]: formatClaimRecord(pending) }),
  };
  try {
    return await deps.call(`creating node pool ${name}`, () => deps.account.api.createNodePool(deps.account.target, body));
  } catch (error) {
    // 409: a first attempt (timed out, or before a restart) created it; our record may be on it already.
    if (ovhStatusOf(error) !== 409) throw error;
    const pool = await waitVisible(deps, name);
    return claimRecordsOf(pool.template).has(claimKey) ? pool : scalePool(deps, pool, claimKey, pending);
  }
}

async function scalePool(deps: PoolLaunchDeps, pool: OvhNodePool, claimKey: string, pending: ClaimRecord): Promise<OvhNodePool> {
  const desiredNodes = pool.desiredNodes + 1;
  // desiredNodes is absolute, so a PUT retried after a timeout cannot add a second node.
  const body = {
    desiredNodes,
    minNodes: 0,
    maxNodes: Math.max(pool.maxNodes, desiredNodes),
    template: withRecord(pool.template, claimKey, pending),
  };
  await deps.call(`scaling node pool ${pool.name} to ${desiredNodes} nodes`, () =>
    deps.account.api.updateNodePool(deps.account.target, pool.id, body),
  );
  return pool;
}

function hasRoom(deps: PoolLaunchDeps, pool: OvhNodePool, settings: PoolSettings): boolean {
  if (pool.status === 'DELETING' || pool.status === 'DELETED') return false;
  return !settings.antiAffinity || pool.desiredNodes < deps.maxAntiAffinityNodes;
}

/** Under the family lock: the pool now holding the claim's record, scaled for it. */
async function recordAndScale(deps: PoolLaunchDeps, settings: PoolSettings, claimKey: string): Promise<OvhNodePool> {
  const base = poolBaseName(settings);
  const pools = await listPools(deps);
  // Every pool of the family takes its name, ours or not; only ours may hold our records or be scaled.
  const family = pools.filter((p) => familyOfPoolName(p.name) === base);
  const recorded = family.find((p) => isManagedPool(p, deps.clusterName) && claimRecordsOf(p.template).has(claimKey));
  if (recorded) return recorded;
  const basePool = family.find((p) => p.name === base);
  const stem = poolStem(base, poolVariant(settings), basePool ? (basePool.template.metadata.labels[LabelPoolVariant] ?? '') : undefined);
  const pending: ClaimRecord = { kind: 'pending', since: deps.clock.now() };
  for (let index = 0; index < MksPoolsPerFamily; index += 1) {
    const name = poolNameAt(stem, index);
    const pool = family.find((p) => p.name === name);
    if (!pool) return createPool(deps, settings, name, claimKey, pending);
    if (isManagedPool(pool, deps.clusterName) && hasRoom(deps, pool, settings)) return scalePool(deps, pool, claimKey, pending);
  }
  throw new CreateError(`launching ${settings.flavor} in ${settings.zone}: the ${MksPoolsPerFamily} node pools of ${stem} are full`, {
    reason: 'NodePoolsFull',
    message: `anti-affinity node pools hold at most ${deps.maxAntiAffinityNodes} nodes and ${MksPoolsPerFamily} pools of ${stem} are full`,
  });
}

/** The template without any record bound to this node (garbage collection deletes by node, not by claim). */
function withoutNodeRecords(template: OvhPoolTemplate, nodeId: string): OvhPoolTemplate {
  const bound = [...claimRecordsOf(template)].filter(([, r]) => r.kind === 'node' && r.nodeId === nodeId).map(([key]) => key);
  return bound.reduce((t, key) => withRecord(t, key, undefined), template);
}

/** Under the family lock: removes the claim's record (and its node, if any, with any record bound to it) from the pool. */
export async function releaseClaim(
  deps: Pick<PoolLaunchDeps, 'account' | 'call'>,
  poolId: string,
  claimKey: string,
  node: OvhNode | undefined,
): Promise<void> {
  const { api, target } = deps.account;
  const pool = await deps.call(`reading node pool ${poolId}`, () => api.getNodePool(target, poolId));
  const released = withRecord(pool.template, claimKey, undefined);
  const template = node ? withoutNodeRecords(released, node.id) : released;
  const removal =
    node && node.status !== 'DELETING' && node.status !== 'DELETED'
      ? { desiredNodes: Math.max(0, pool.desiredNodes - 1), nodesToRemove: [node.id] }
      : {};
  await deps.call(`releasing ${claimKey} from node pool ${pool.name}`, () => api.updateNodePool(target, pool.id, { ...removal, template }));
}

async function bind(deps: PoolLaunchDeps, poolId: string, claimKey: string, nodeId: string): Promise<void> {
  const { api, target } = deps.account;
  const pool = await deps.call(`reading node pool ${poolId}`, () => api.getNodePool(target, poolId));
  const template = withRecord(pool.template, claimKey, { kind: 'node', nodeId });
  await deps.call(`binding node ${nodeId} in node pool ${pool.name}`, () => api.updateNodePool(target, pool.id, { template }));
}

/** The pool and its nodes, or undefined while the pool is not visible yet. */
async function readPool(deps: PoolLaunchDeps, poolId: string): Promise<{ pool: OvhNodePool; nodes: OvhNode[] } | undefined> {
  const { api, target } = deps.account;
  try {
    const pool = await deps.call(`reading node pool ${poolId}`, () => api.getNodePool(target, poolId));
    const nodes = await deps.call(`listing nodes of node pool ${poolId}`, () => api.listPoolNodes(target, poolId));
    return { pool, nodes };
  } catch (error) {
    if (isOvhNotFound(error)) return undefined;
    throw error;
  }
}

function nodeOfClaim(pool: OvhNodePool, nodes: OvhNode[], claimKey: string): OvhNode | undefined | 'released' {
  const records = claimRecordsOf(pool.template);
  const record = records.get(claimKey);
  if (!record) return 'released';
  const nodeId = record.kind === 'node' ? record.nodeId : matchPendingClaims(records, nodes).get(claimKey);
  return nodes.find((n) => n.id === nodeId);
}

/**
 * The node recorded or matched for the claim on this pool; undefined when the record has no node (a
 * failed or released launch); `not yet` while a pending claim's node has not appeared.
 */
export async function nodeOfRecordedClaim(
  deps: PoolLaunchDeps,
  poolId: string,
  claimKey: string,
): Promise<OvhNode | undefined | 'not yet'> {
  const read = await readPool(deps, poolId);
  if (!read) return undefined;
  const node = nodeOfClaim(read.pool, read.nodes, claimKey);
  if (node === 'released') return undefined;
  if (node) return node;
  return claimRecordsOf(read.pool.template).get(claimKey)?.kind === 'pending' ? 'not yet' : undefined;
}

export interface LaunchedNode {
  pool: OvhNodePool;
  node: OvhNode;
}

/** Launches (or finds the launch of) the claim's node with these pool settings. */
export async function launchInPool(
  deps: PoolLaunchDeps,
  settings: PoolSettings,
  claimKey: string,
  offering: OfferingKey,
): Promise<LaunchedNode> {
  const lockKey = familyLockKey(deps.account, poolBaseName(settings));
  const pool = await deps.lock.run(lockKey, () => recordAndScale(deps, settings, claimKey));
  return awaitNode(deps, pool.id, claimKey, offering);
}

/**
 * Waits until the node recorded (or matched) for the claim has an instance, and binds it; a node MKS
 * could not launch is removed with the record and reported (out of stock, quota).
 */
export async function awaitNode(deps: PoolLaunchDeps, poolId: string, claimKey: string, offering: OfferingKey): Promise<LaunchedNode> {
  const deadline = deps.clock.now() + deps.launchTimeoutMs;
  for (;;) {
    const read = await readPool(deps, poolId);
    const lockKey = familyLockKey(deps.account, familyOfPoolName(read?.pool.name ?? ''));
    const node = read ? nodeOfClaim(read.pool, read.nodes, claimKey) : undefined;
    if (node === 'released')
      throw new PermanentCloudError(`launching ${claimKey}: its record left node pool ${read?.pool.name ?? poolId} (deleted meanwhile)`);
    if (node && NodeFailureStatuses.has(node.status)) {
      await deps.lock.run(lockKey, () => releaseClaim(deps, poolId, claimKey, node));
      throw nodeFailureError(node.status, offering, node.id);
    }
    if (read && node?.instanceId) {
      const bound = claimRecordsOf(read.pool.template).get(claimKey)?.kind === 'node';
      if (!bound) await deps.lock.run(lockKey, () => bind(deps, poolId, claimKey, node.id));
      return { pool: read.pool, node };
    }
    if (deps.clock.now() >= deadline) {
      throw new CreateError(
        `launching ${claimKey} in node pool ${read?.pool.name ?? poolId}: no instance after ${deps.launchTimeoutMs} ms`,
        {
          reason: 'LaunchTimeout',
          message: `MKS gave no instance for ${offering.instanceType} in ${offering.zone} within ${deps.launchTimeoutMs} ms`,
        },
      );
    }
    await deps.clock.sleep(deps.pollIntervalMs);
  }
}
