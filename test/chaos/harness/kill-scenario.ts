/**
 * SIGKILL at one cloud call: the operator is killed at the arrival of the call (the cloud never acts) or once
 * the cloud has acted and before its answer leaves, then a new operator is started and must converge with every
 * invariant holding.
 */
import type { Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, converged, createDeployment, createPod, deletePod, deployment, eventually, gpuPod, scaleDeployment } from './workload.js';
import { type ChaosWorld, startChaosWorld } from './world.js';

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

// Generous: a restarted operator loads from source (tsx) and waits out its predecessor's lease.
const KillTimeoutMs = 120_000;

export async function runKillPoint(point: KillPoint): Promise<KillOutcome> {
  const world = await startChaosWorld({ cloud: point.cloud });
  const monitor = new Monitor(world);
  let fired = false;
  const armKill = (): number =>
    world.faults.add({
      match: { action: point.action },
      times: 1,
      fault: {
        kind: 'hook',
        then: point.when,
        run: async () => {
          // Only once the process is gone: a restart before that would race it for its ports.
          await world.killOperator();
          fired = true;
        },
      },
    });
  try {
    await bringUp(world);
    monitor.start();
    if (point.phase === 'launch') armKill();
    if (point.workload === 'gpu') await createPod(world, gpuPod(point.cloud, 'gpu'));
    else await createDeployment(world, deployment(point.cloud, 'web', 2));
    if (point.phase === 'delete') {
      await converged(world, KillTimeoutMs);
      armKill();
      if (point.workload === 'gpu') await deletePod(world, 'gpu');
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

/** Every NodeClaim, instance and GPU gone once the pods are: the deletion finished after the restart. */
async function emptied(world: ChaosWorld): Promise<void> {
  const left = (): string[] => {
    const now = world.observe();
    return [
      ...now.claims.map((c) => `nodeclaim ${c.name}${c.deleting ? ' (deleting)' : ''}`),
      ...now.instances.filter((i) => i.state !== 'gone' && i.state !== 'deleting').map((i) => `instance ${i.id} (${i.state})`),
      ...now.gpus.map((g) => `gpu ${g.id}${g.vmId ? ` on ${g.vmId}` : ''}`),
    ];
  };
  try {
    await eventually('emptied', () => left().length === 0, KillTimeoutMs);
  } catch {
    throw new Error(`not emptied in ${KillTimeoutMs / 1000}s (operator logs in ${world.logDir}): ${left().join(', ')}`);
  }
}
