/**
 * Scenarios for the clouds' lies and lags (a listing answered by an empty 200, a listing lag): each returns the violations it found (none when the operator holds).
 */
import { objectKey } from '../../../src/testbed/cluster/apiserver/kube-object.js';
import type { Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, converged, createDeployment, deployment, eventually } from './workload.js';
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
    run: () =>
      withWorld(cloud, async (world) => {
        await createDeployment(world, deployment(cloud, 'web', 2));
        await converged(world, 120_000);
        const claimsBefore = world
          .observe()
          .claims.map((c) => c.name)
          .sort();
        const rules = [
          world.faults.add({ match: { action }, fault: { kind: 'empty-ok', body: '' }, probability: 0.5 }),
          world.faults.add({ match: { action }, fault: { kind: 'empty-ok', body: '{}' } }),
        ];
        await sleep(25_000);
        for (const id of rules) world.faults.remove(id);
        const after = world.observe();
        const lost = claimsBefore.filter((name) => !after.claims.some((c) => c.name === name && !c.deleting));
        return lost.map((name) => ({
          kind: 'wrong-deletion' as const,
          subject: name,
          detail: `nodeclaim ${name} was deleted while ${action} answered empty 200s`,
        }));
      }),
  };
}

/** New instances stay out of the listings for 15 s: any extra launched meanwhile must be collected. */
function laggingListing(cloud: ChaosCloud): HoleScenario {
  return {
    name: `${cloud}: a 15 s listing lag leaves no duplicate and no leak once converged`,
    run: () =>
      withWorld(cloud, async (world) => {
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
    run: () =>
      withWorld(cloud, async (world) => {
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

/**
 * A kill after the cloud created the instance, while new instances stay out of the listings for 30 s: the
 * restarted operator cannot find the first instance yet. It must wait for the listing rather than launch a
 * second one: no duplicate may exist at any instant (the monitor looks at every call that changes the cloud and
 * every 250 ms), and the one instance is finished. The scenario fails if the restart came after the listing
 * showed the instance (it would then test nothing).
 */
function noDuplicateAfterLag(cloud: ChaosCloud, createAction: string): HoleScenario {
  const lagMs = 30_000;
  return {
    name: `${cloud}: a kill after ${createAction} during a 30 s listing lag makes no duplicate, not even for a moment`,
    run: () =>
      withWorld(cloud, async (world, monitor) => {
        world.setListingLag(lagMs);
        let killedAt: number | undefined;
        world.faults.add({
          match: { action: createAction },
          times: 1,
          fault: {
            kind: 'hook',
            then: 'answer',
            run: async () => {
              await world.killOperator();
              killedAt = Date.now();
            },
          },
        });
        await createDeployment(world, deployment(cloud, 'web', 1));
        await eventually(`the operator killed at ${createAction}`, () => killedAt !== undefined, 120_000);
        world.startOperator();
        const restartedAt = Date.now();
        await sleep(lagMs);
        world.setListingLag(0);
        monitor.check();
        try {
          await converged(world, 120_000);
        } catch (error) {
          return [{ kind: 'leaked-instance' as const, subject: cloud, detail: String(error) }];
        }
        const lagged = restartedAt - (killedAt as number) < lagMs;
        return lagged
          ? []
          : [
              {
                kind: 'duplicate-instance' as const,
                subject: cloud,
                detail: 'the operator restarted after the listing showed the instance: the scenario tests nothing',
              },
            ];
      }),
  };
}

/**
 * Two clusters, each with its own operator and cluster name, in one cloud project: each runs a workload, both
 * garbage-collect every 2 s for 20 s more; neither may delete, adopt or count as leaked the other's instances.
 */
function twoClustersOneProject(cloud: ChaosCloud): HoleScenario {
  return {
    name: `${cloud}: two operators with two cluster names in one project leave each other's instances alone`,
    run: async () => {
      const alpha = await startChaosWorld({ cloud, clusterName: 'alpha' });
      const beta = await startChaosWorld({ cloud, clusterName: 'beta', sharedEmulators: alpha.emulators });
      const monitors = [new Monitor(alpha), new Monitor(beta)];
      try {
        await Promise.all([bringUp(alpha), bringUp(beta)]);
        for (const m of monitors) m.start();
        await createDeployment(alpha, deployment(cloud, 'web', 2));
        await converged(alpha, 120_000);
        const alphaInstances = alpha
          .observe()
          .instances.map((i) => i.id)
          .sort();
        await createDeployment(beta, deployment(cloud, 'api', 2));
        await converged(beta, 120_000);
        await sleep(20_000);
        const ends = await Promise.all(
          [alpha, beta].map((w) =>
            converged(w, 60_000).then(
              () => '',
              (error: unknown) => String(error),
            ),
          ),
        );
        for (const m of monitors) m.check();
        const stillAlpha = alpha
          .observe()
          .instances.map((i) => i.id)
          .sort();
        const lost = alphaInstances.filter((id) => !stillAlpha.includes(id));
        return [
          ...monitors.flatMap((m) => m.violations()),
          ...ends.filter((e) => e !== '').map((detail) => ({ kind: 'leaked-instance' as const, subject: cloud, detail })),
          ...lost.map((id) => ({
            kind: 'wrong-deletion' as const,
            subject: id,
            detail: `cluster alpha's instance ${id} was replaced while cluster beta ran`,
          })),
        ];
      } finally {
        for (const m of monitors) m.stop();
        await beta.close();
        await alpha.close();
      }
    },
  };
}

/** Scenarios that hold on this branch. */
export const heldScenarios: readonly HoleScenario[] = [
  emptyListing('scaleway', 'listServers'),
  emptyListing('outscale', 'ReadVms'),
  laggingListing('scaleway'),
  laggingListing('outscale'),
  orphanedInstance('scaleway'),
  orphanedInstance('outscale'),
  orphanedInstance('ovhcloud'),
  noDuplicateAfterLag('scaleway', 'createServer'),
  twoClustersOneProject('scaleway'),
  twoClustersOneProject('outscale'),
];

/** Scenarios that still find a hole, each with what it finds. */
export const holeScenarios: readonly HoleScenario[] = [];
