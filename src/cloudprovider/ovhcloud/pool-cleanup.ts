/**
 * Deleting our node pools once empty: a pool with no node, no desired node and no claim record for
 * longer than the grace period goes (the grace spares a pool about to be scaled up again, and the
 * creation of a pool, which costs minutes on MKS). Re-checked under the family lock before deleting.
 */
import type { Clock } from '../../util/clock.js';
import type { OvhAccount } from './accounts.js';
import type { OvhNodePool } from './api.js';
import type { OvhCaller } from './calls.js';
import type { KeyedLock } from './keyed-lock.js';
import { familyLockKey } from './pool-launcher.js';
import { claimRecordsOf, familyOfPoolName, isManagedPool } from './pool-naming.js';

/** Ten minutes, MKS's own scale-down-unneeded default. */
export const DefaultEmptyPoolGraceMs = 10 * 60 * 1000;

export interface PoolCleanupDeps {
  account: OvhAccount;
  clusterName: string;
  call: OvhCaller;
  clock: Clock;
  lock: KeyedLock;
  graceMs: number;
}

export function isEmptyPastGrace(pool: OvhNodePool, now: number, graceMs: number, clusterName: string): boolean {
  if (!isManagedPool(pool, clusterName) || pool.status === 'DELETING') return false;
  if (pool.desiredNodes > 0 || pool.currentNodes > 0 || claimRecordsOf(pool.template).size > 0) return false;
  return now - Date.parse(pool.updatedAt) >= graceMs;
}

/** Deletes the pools empty past the grace period; returns their names. */
export async function deleteEmptyPools(deps: PoolCleanupDeps, pools: readonly OvhNodePool[]): Promise<string[]> {
  const { api, target } = deps.account;
  const deleted: string[] = [];
  for (const candidate of pools.filter((p) => isEmptyPastGrace(p, deps.clock.now(), deps.graceMs, deps.clusterName))) {
    await deps.lock.run(familyLockKey(deps.account, familyOfPoolName(candidate.name)), async () => {
      const pool = await deps.call(`reading node pool ${candidate.name}`, () => api.getNodePool(target, candidate.id));
      if (!isEmptyPastGrace(pool, deps.clock.now(), deps.graceMs, deps.clusterName)) return;
      await deps.call(`deleting empty node pool ${pool.name}`, () => api.deleteNodePool(target, pool.id));
      deleted.push(pool.name);
    });
  }
  return deleted;
}
