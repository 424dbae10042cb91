/**
 * Scenarios for the clouds' lies and lags (a listing answered by an empty 200, a listing lag): each returns the violations it found (none when the operator holds).
 */
import { objectKey } from '../../../src/testbed/cluster/apiserver/kube-object.js';
import type { Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, converged, createDeployment, deployment } from './workload.js';
import { type ChaosWorld, startChaosWorld } from './world.js';

export interface HoleScenario {
  name: string;
  run(): Promise<Violation[]>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function withWorld(cloud: ChaosCloud, body: (world: ChaosWorld, monitor: Monitor) => Promise<Violation[]>): Promise<Violation[]> {
  const world = await startChaosWorld({ cloud });
  const monitor = new Monitor(world);
  try {
    await bringUp(world);
    monitor.start();
    const found = await body(world, monitor);
    monitor.check();
    return [...monitor.violations(), ...found];
  } finally {
    monitor.stop();
    await world.close();
  }
}

/** The listing answers 200 with an empty body, then `{}`, for longer than several GC periods: nothing may go. */
function emptyListing(cloud: ChaosCloud, action: string): HoleScenario {
  return {
    name: `${cloud}: ${action} answered 200 with an empty body and with {} for 25 s deletes nothing`,
    run: () => withWorld(cloud, async (world) => {
      await createDeployment(world, deployment(cloud, 'web', 2));
      await converged(world, 120_000);
      const claimsBefore = world.observe().claims.map((c) => c.name).sort();
      const rules = [world.faults.add({ match: { action }, fault: { kind: 'empty-ok', body: '' }, probability: 0.5 }), world.faults.add({ match: { action }, fault: { kind: 'empty-ok', body: '{}' } })];
      await sleep(25_000);
      for (const id of rules) world.faults.remove(id);
      const after = world.observe();
      const lost = claimsBefore.filter((name) => !after.claims.some((c) => c.name === name && !c.deleting));
      return lost.map((name) => ({ kind: 'wrong-deletion' as const, subject: name, detail: `nodeclaim ${name} was deleted while ${action} answered empty 200s` }));
    }),
  };
}

/** New instances stay out of the listings for 15 s: any extra launched meanwhile must be collected. */
function laggingListing(cloud: ChaosCloud): HoleScenario {
  return {
    name: `${cloud}: a 15 s listing lag leaves no duplicate and no leak once converged`,
    run: () => withWorld(cloud, async (world) => {
      world.setListingLag(15_000);
      await createDeployment(world, deployment(cloud, 'web', 2));
      await sleep(30_000);
      world.setListingLag(0);
      try {
        await converged(world, 120_000);
        return [];
      } catch (error) {
        return [{ kind: 'leaked-instance' as const, subject: cloud, detail: String(error) }];
      }
    }),
  };
}

/**
 * The operator is down while a NodeClaim is removed without its finalizer, leaving its instance running and
 * named by nothing: once restarted, garbage collection must remove it (and the pods it ran land elsewhere).
 */
function orphanedInstance(cloud: ChaosCloud): HoleScenario {
  return {
    name: `${cloud}: an instance whose NodeClaim vanished while the operator was down is collected`,
    run: () => withWorld(cloud, async (world) => {
      await createDeployment(world, deployment(cloud, 'web', 2));
      await converged(world, 120_000);
      await world.killOperator();
      const victim = world.observe().claims[0]?.name as string;
      // Straight from storage: with the operator down, its webhooks refuse any write to a NodeClaim.
      world.cluster.apiServer.store.remove('karpenter.sh/nodeclaims', objectKey(undefined, victim));
      world.startOperator();
      try {
        await converged(world, 120_000);
        return [];
      } catch (error) {
        return [{ kind: 'leaked-instance' as const, subject: victim, detail: String(error) }];
      }
    }),
  };
}

/** Scenarios that hold on this branch. */
export const heldScenarios: readonly HoleScenario[] = [
  emptyListing('scaleway', 'listServers'),
  laggingListing('scaleway'),
  laggingListing('outscale'),
  orphanedInstance('scaleway'),
  orphanedInstance('outscale'),
];

/**
 * Scenarios that still find a hole: ReadVms's empty 200 is read as "no VMs" (wrong-deletion of a live
 * NodeClaim); a leaked MKS node is never collected without operator-wide OVH account settings (leaked-instance).
 */
export const holeScenarios: readonly HoleScenario[] = [emptyListing('outscale', 'ReadVms'), orphanedInstance('ovhcloud')];
