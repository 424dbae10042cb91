/**
 * NodePool `spec.limits`: every entry a known resource with a non-negative quantity, and large enough for at
 * least one flavor the NodePool allows (Karpenter never launches a node that would push usage past a limit).
 */
import { ACCEPTED_QUANTITY_FORMS } from '../../quantity/errors.js';
import { parseResourceQuantity, resourceAmount, formatResourceList } from '../../quantity/resource-list.js';
import type { InstanceType } from '../../instancetypes/types.js';
import { exceededLimits, NodesLimit, remainingLimits } from '../../nodepool/limits.js';
import { asRecord, field, nameOf } from '../object-access.js';
import type { PoolScope } from '../pool-scope.js';
import { didYouMean } from '../suggest.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export const KnownLimitResources = ['cpu', 'memory', 'ephemeral-storage', 'pods', 'nodes', 'nvidia.com/gpu'] as const;

/** Extended resources (`vendor.com/gpu`, `hugepages-2Mi`) are accepted as written; bare unknown names are typos. */
function isKnownResource(name: string): boolean {
  return (KnownLimitResources as readonly string[]).includes(name) || name.includes('/') || name.startsWith('hugepages-');
}

/** Parsed limits by resource (cpu in millicores, others in base units); invalid entries reported, not returned. */
export function parseLimits(pool: KubeObject, findings: RuleFindings): Record<string, number> {
  const limits = asRecord(field(pool, 'spec', 'limits'));
  const parsed: Record<string, number> = {};
  for (const [name, raw] of Object.entries(limits ?? {})) {
    const path = `spec.limits[${name}]`;
    if (!isKnownResource(name)) {
      findings.violations.push({
        path,
        message: `Unsupported value: ${JSON.stringify(name)}: unknown resource name${didYouMean(name, KnownLimitResources)}; accepted: ${KnownLimitResources.join(', ')} or an extended resource such as vendor.com/device`,
      });
      continue;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      findings.violations.push({ path, message: `Invalid value: ${JSON.stringify(raw)}: a quantity is required, e.g. "64" or "256Gi"` });
      continue;
    }
    let amount: number;
    try {
      amount = resourceAmount(name, parseResourceQuantity(name, raw));
    } catch {
      findings.violations.push({
        path,
        message: `Invalid value: ${JSON.stringify(raw)}: not a quantity; accepted: ${ACCEPTED_QUANTITY_FORMS}`,
      });
      continue;
    }
    if (amount < 0) {
      findings.violations.push({ path, message: `Invalid value: ${JSON.stringify(raw)}: must be zero or more` });
      continue;
    }
    parsed[name] = amount;
  }
  return parsed;
}

function capacityOf(instanceType: InstanceType, resource: string): number {
  return resource === NodesLimit ? 1 : (instanceType.capacity[resource] ?? 0);
}

/** The first limit one node of this instance type exceeds in an empty NodePool, if any. */
function exceededLimit(instanceType: InstanceType, limits: Record<string, number>): string | undefined {
  return exceededLimits(remainingLimits(limits, {}), instanceType.capacity, 1)[0];
}

/** How many of its largest flavor a suggested limit allows: room to scale, a ceiling on a runaway Deployment. */
const SUGGESTED_NODES = 10;
const GiB = 1024 ** 3;

/** A NodePool without limits can launch nodes without end: warn, naming a limit sized on what it may launch. */
function warnWithoutLimits(pool: KubeObject, scope: PoolScope, findings: RuleFindings): void {
  if (field(pool, 'spec', 'limits') !== undefined) return;
  const largest = [...scope.allowed].sort(
    (a, b) => (b.capacity.cpu ?? 0) - (a.capacity.cpu ?? 0) || (b.capacity.memory ?? 0) - (a.capacity.memory ?? 0),
  )[0];
  const suggestion = largest
    ? formatResourceList({
        cpu: (largest.capacity.cpu ?? 0) * SUGGESTED_NODES,
        memory: Math.ceil(((largest.capacity.memory ?? 0) * SUGGESTED_NODES) / GiB) * GiB,
      })
    : { cpu: '100', memory: '400Gi' };
  const basis = largest ? `${SUGGESTED_NODES} of its largest flavor, ${largest.name}` : 'a starting point';
  findings.warnings.push(
    `NodePool ${JSON.stringify(nameOf(pool))}: spec.limits is not set, so nothing caps the nodes (and the bill) a runaway workload can cause; suggested: limits: {cpu: "${suggestion.cpu}", memory: "${suggestion.memory}"} (${basis})`,
  );
}

export function checkLimits(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  warnWithoutLimits(pool, scope, findings);
  const limits = parseLimits(pool, findings);
  if (findings.violations.length > 0 || scope.allowed.length === 0 || Object.keys(limits).length === 0) return findings;
  if (scope.allowed.some((t) => exceededLimit(t, limits) === undefined)) return findings;
  const smallest = [...scope.allowed].sort(
    (a, b) => (a.capacity.cpu ?? 0) - (b.capacity.cpu ?? 0) || (a.capacity.memory ?? 0) - (b.capacity.memory ?? 0),
  )[0] as InstanceType;
  const resource = exceededLimit(smallest, limits) as string;
  const needed = resource === 'nodes' ? '1' : (formatResourceList({ [resource]: capacityOf(smallest, resource) })[resource] ?? '');
  const raw = asRecord(field(pool, 'spec', 'limits'))?.[resource];
  findings.violations.push({
    path: `spec.limits[${resource}]`,
    message: `Invalid value: ${JSON.stringify(raw)}: smaller than the smallest flavor this NodePool allows (${smallest.name} has ${resource} ${needed}), so it could never launch a node; raise it to at least ${needed} or allow smaller flavors`,
  });
  return findings;
}
