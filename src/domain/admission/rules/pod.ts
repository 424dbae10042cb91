/**
 * The optional Pod check (failurePolicy Ignore; pod-selectors.ts refuses legacy selectors): a pod whose requests exceed the allocatable
 * of every flavor every NodePool can launch gets a warning naming the closest flavor.
 */
import { podSchedulingRequests } from '../../pods/requests.js';
import { exceededResources, formatResourceList } from '../../quantity/resource-list.js';
import type { InstanceType, ResourceList } from '../../instancetypes/types.js';
import { field, nameOf } from '../object-access.js';
import { resolvePoolScope } from '../pool-scope.js';
import { emptyFindings, type AdmissionContext, type KubeObject, type RuleFindings } from '../types.js';

/** How far a request is from fitting: the sum of the relative shortfalls. */
function shortfall(requests: ResourceList, allocatable: ResourceList): number {
  return Object.entries(requests).reduce((sum, [name, amount]) => {
    const available = allocatable[name] ?? 0;
    return amount > available ? sum + (amount - available) / Math.max(amount, 1) : sum;
  }, 0);
}

// What the NodePools of a context can launch is the same for every pod reviewed against that context
// (offline admission reviews thousands of pods against one): derived data, memoised per context object.
const launchableMemo = new WeakMap<AdmissionContext, readonly InstanceType[]>();

function launchable(context: AdmissionContext): readonly InstanceType[] {
  let types = launchableMemo.get(context);
  if (!types) launchableMemo.set(context, (types = context.nodePools.flatMap((pool) => [...resolvePoolScope(pool, context).allowed])));
  return types;
}

export function checkPod(pod: KubeObject, context: AdmissionContext): RuleFindings {
  const findings = emptyFindings();
  if (context.nodePools.length === 0) return findings;
  let requests: ResourceList;
  try {
    requests = podSchedulingRequests({ spec: field(pod, 'spec') as never });
  } catch {
    return findings; // the API server rejects malformed quantities itself
  }
  const candidates = launchable(context);
  if (candidates.length === 0 || candidates.some((t) => exceededResources(requests, t.allocatable).length === 0)) return findings;
  const closest = candidates.reduce((best, t) => (shortfall(requests, t.allocatable) < shortfall(requests, best.allocatable) ? t : best));
  const missing = exceededResources(requests, closest.allocatable);
  const asked = formatResourceList(Object.fromEntries(missing.map((r) => [r, requests[r] ?? 0])));
  const has = formatResourceList(Object.fromEntries(missing.map((r) => [r, closest.allocatable[r] ?? 0])));
  findings.warnings.push(
    `pod ${JSON.stringify(nameOf(pod))} can never be placed by any NodePool: it requests ${Object.entries(asked)
      .map(([r, v]) => `${r} ${v}`)
      .join(', ')} but the closest flavor, ${closest.name}, has ${Object.entries(has)
      .map(([r, v]) => `${r} ${v}`)
      .join(', ')} allocatable`,
  );
  return findings;
}
