/**
 * Whether each node a create/scale request adds will launch: an injected capacity fault fails them all
 * (FLAVOR_OUT_OF_STOCK_ERROR / USER_QUOTA_ERROR, the statuses MKS shows — the HTTP call itself succeeds),
 * and the project quota fails the nodes beyond it.
 */
import type { Fault } from '../faults.js';
import type { EmulatorContext } from './context.js';
import { isLive } from './lifecycle.js';
import type { NodeFailure } from './records.js';
import type { LaunchPlan } from './store.js';

function launchedUsage(emu: EmulatorContext, projectId: string): { instances: number; vCPUs: number } {
  let instances = 0;
  let vCPUs = 0;
  for (const node of emu.store.nodes.values()) {
    if (node.projectId !== projectId || !isLive(node) || node.failure) continue;
    instances += 1;
    vCPUs += emu.flavorsByName.get(node.flavor)?.vcpus ?? 0;
  }
  return { instances, vCPUs };
}

export function planLaunch(
  emu: EmulatorContext,
  args: { projectId: string; flavor: string; count: number; fault?: Fault; now: number },
): LaunchPlan {
  const failures: (NodeFailure | undefined)[] = [];
  const capacityFault =
    args.fault?.kind === 'out-of-stock'
      ? 'FLAVOR_OUT_OF_STOCK_ERROR'
      : args.fault?.kind === 'quota-exceeded'
        ? 'USER_QUOTA_ERROR'
        : undefined;
  const usage = launchedUsage(emu, args.projectId);
  const cores = emu.flavorsByName.get(args.flavor)?.vcpus ?? 0;
  const { instances: maxInstances, vCPUs: maxCores } = emu.settings.quota;
  for (let i = 0; i < args.count; i++) {
    if (capacityFault) {
      failures.push(capacityFault);
      continue;
    }
    const overQuota =
      (maxInstances !== undefined && usage.instances + 1 > maxInstances) || (maxCores !== undefined && usage.vCPUs + cores > maxCores);
    if (overQuota) {
      failures.push('USER_QUOTA_ERROR');
      continue;
    }
    usage.instances += 1;
    usage.vCPUs += cores;
    failures.push(undefined);
  }
  return { now: args.now, failures };
}
