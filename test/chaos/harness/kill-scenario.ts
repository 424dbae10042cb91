/**
 * SIGKILL at one cloud call: the operator is killed at the arrival of the call (the cloud never acts) or once
 * the cloud has acted and before its answer leaves, then a new operator is started and must converge with every
 * invariant holding.
 */
import type { Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, converged, createDeployment, createPod, deployment, eventually, gpuPod, scaleDeployment } from './workload.js';
import { startChaosWorld } from './world.js';

export interface KillPoint {
  cloud: ChaosCloud;
  /** The emulator's action name for the call (`createServer`, `poweron`, `CreateVms`, `updateNodePool`…). */
  action: string;
  /** `launch`: killed while pods wait for new nodes; `delete`: while emptied nodes are removed. */
  phase: 'launch' | 'delete';
  /** `answer`: the cloud acted, its answer is lost with the process; `drop`: killed before the cloud acted. */
  when: 'answer' | 'drop';
  /** The workload: plain pods, or one pod wanting a GPU. */
  workload: 'pods' | 'gpu';
}

export interface KillOutcome {
  violations: Violation[];
  /** From the restart after the kill to every invariant holding (ms). */
  convergedAfterMs: number;
}

export function killPointName(p: KillPoint): string {
  return `${p.cloud}: SIGKILL ${p.when === 'answer' ? 'after the cloud acted on' : 'at'} ${p.action} during a ${p.phase}${p.workload === 'gpu' ? ' (gpu)' : ''}`;
}

const KillTimeoutMs = 60_000;

export async function runKillPoint(point: KillPoint): Promise<KillOutcome> {
  const world = await startChaosWorld({ cloud: point.cloud });
  const monitor = new Monitor(world);
  let fired = false;
  const armKill = (): number =>
    world.faults.add({ match: { action: point.action }, times: 1, fault: { kind: 'hook', then: point.when, run: async () => {
      fired = true;
      await world.killOperator();
    } } });
  try {
    await bringUp(world);
    monitor.start();
    if (point.phase === 'launch') armKill();
    if (point.workload === 'gpu') await createPod(world, gpuPod(point.cloud, 'gpu'));
    else await createDeployment(world, deployment(point.cloud, 'web', 2));
    if (point.phase === 'delete') {
      await converged(world, KillTimeoutMs);
      armKill();
      if (point.workload === 'gpu') await world.cluster.kubeConfig.makeApiClient((await import('@kubernetes/client-node')).CoreV1Api).deleteNamespacedPod({ name: 'gpu', namespace: 'default', gracePeriodSeconds: 0 });
      else await scaleDeployment(world, 'web', 0);
    }
    await eventually(`the operator killed at ${point.action}`, () => fired, KillTimeoutMs);
    world.startOperator();
    const restartedAt = Date.now();
    if (point.phase === 'launch') await converged(world, KillTimeoutMs);
    else await emptied(world);
    monitor.check();
    return { violations: monitor.violations(), convergedAfterMs: Date.now() - restartedAt };
  } finally {
    monitor.stop();
    await world.close();
  }
}

/** Every NodeClaim and instance gone once the pods are: the deletion finished after the restart. */
async function emptied(world: Awaited<ReturnType<typeof startChaosWorld>>): Promise<void> {
  await eventually('every node of the emptied pool removed', () => {
    const now = world.observe();
    return now.claims.length === 0 && now.instances.every((i) => i.state === 'gone' || i.state === 'deleting') && now.gpus.length === 0;
  }, KillTimeoutMs);
}
