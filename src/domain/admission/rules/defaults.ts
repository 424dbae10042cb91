/**
 * The defaults that only guide scheduling, applied when a NodePool is read (as upstream Karpenter does), never
 * written into the stored object: a GitOps tool then finds in the cluster exactly what Git holds plus the CRD's
 * own schema defaults. NodePools: on-demand capacity type, amd64, canonical flavor names and GPU aliases,
 * configured limits, gen2 restriction under monthly billing, GPU taint. `effectiveNodePool` is the one reader
 * (the service's ClusterState, admission's rules and `plan` all go through it); admission reports each default
 * as a warning. OVHNodeClass: region and kubeId come from the service's configuration where unset, read by the
 * provider the same way, so they are only reported.
 */
import {
  CapacityTypeOnDemand,
  LabelArch,
  LabelCapacityType,
  LabelInstanceGPUName,
  LabelInstanceType,
  ResourceNvidiaGPU,
} from '../../../apis/v1/labels.js';
import type { NodePool } from '../../../apis/index.js';
import { deepCopy } from '../../../util/json-copy.js';
import { normaliseGpuName, resolveGpuAlias } from '../../instancetypes/gpu-mapping.js';
import { GpuNodeTaint } from '../../requirements/taints.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { asArray, asRecord, field, nameOf } from '../object-access.js';
import { flavorNamesOf, resolvePoolScope, resolvePoolTarget, scopeOf, type PoolScope, type PoolTarget } from '../pool-scope.js';
import type { AdmissionContext, KubeObject } from '../types.js';
import { isMonthlyBilled, MonthlyBillingFamilies, restrictsInstanceTypes } from './billing.js';

type Requirement = { key: string; operator: string; values?: string[] };

function templateSpec(pool: KubeObject): KubeObject | undefined {
  return asRecord(field(pool, 'spec', 'template', 'spec'));
}

function requirementList(pool: KubeObject): Requirement[] | undefined {
  const spec = templateSpec(pool);
  if (!spec) return undefined;
  if (!Array.isArray(spec.requirements)) spec.requirements = [];
  return spec.requirements as Requirement[];
}

function addRequirementIfAbsent(pool: KubeObject, key: string, values: string[], warnings: string[]): void {
  const list = requirementList(pool);
  if (!list || list.some((r) => typeof asRecord(r)?.key === 'string' && normalizeLabelKey(r.key) === key)) return;
  list.push({ key, operator: 'In', values });
  warnings.push(`NodePool ${JSON.stringify(nameOf(pool))}: no ${key} requirement, ${key} In [${values.join(', ')}] applies`);
}

/** Flavor names in the catalog's case, GPU aliases (`l4`, `GPU-L4-S`) to the flavor they mean, GPU names normalised. */
function canonicaliseValues(pool: KubeObject, scope: PoolTarget, warnings: string[]): void {
  const flavors = scope.catalog ? flavorNamesOf(scope.catalog) : { names: [], set: new Set<string>() };
  for (const requirement of requirementList(pool) ?? []) {
    const r = asRecord(requirement);
    if (!r || !Array.isArray(r.values) || typeof r.key !== 'string') continue;
    const key = normalizeLabelKey(r.key);
    const canonical = (value: unknown): unknown => {
      if (typeof value !== 'string') return value;
      if (key === LabelInstanceGPUName) return normaliseGpuName(value) ?? value;
      if (key !== LabelInstanceType || flavors.set.has(value)) return value;
      const sameName = flavors.names.find((f) => f.toLowerCase() === value.toLowerCase());
      return sameName ?? (scope.cloud ? resolveGpuAlias(scope.cloud, value) : undefined) ?? value;
    };
    r.values.forEach((value, i) => {
      const next = canonical(value);
      if (next === value) return;
      (r.values as unknown[])[i] = next;
      warnings.push(`NodePool ${JSON.stringify(nameOf(pool))}: ${r.key} value ${JSON.stringify(value)} read as ${JSON.stringify(next)}`);
    });
  }
}

function fillLimits(pool: KubeObject, context: AdmissionContext, warnings: string[]): void {
  const spec = asRecord(pool.spec);
  const limits = context.defaults.limits;
  if (!spec || !limits || Object.keys(limits).length === 0 || spec.limits !== undefined) return;
  spec.limits = { ...limits };
  warnings.push(
    `NodePool ${JSON.stringify(nameOf(pool))}: no spec.limits, the service defaults apply: ${Object.entries(limits)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
  );
}

function addGpuTaint(pool: KubeObject, scope: PoolScope, context: AdmissionContext, warnings: string[]): void {
  const spec = templateSpec(pool);
  if (!spec || !context.defaults.gpuTaint || scope.allowed.length === 0 || !scope.allowed.every((t) => t.gpu)) return;
  const taints = asArray(spec.taints);
  if (taints.some((t) => asRecord(t)?.key === ResourceNvidiaGPU)) return;
  spec.taints = [...taints, { ...GpuNodeTaint }];
  warnings.push(
    `NodePool ${JSON.stringify(nameOf(pool))}: only GPU flavors, its nodes get the taint ${GpuNodeTaint.key}=${GpuNodeTaint.value}:${GpuNodeTaint.effect} so only GPU pods land there`,
  );
}

/** Applies the defaults to `pool` in place; the scope is the defaulted pool's (undefined without a template). */
function applyNodePoolDefaults(pool: KubeObject, context: AdmissionContext): { warnings: string[]; scope?: PoolScope } {
  const warnings: string[] = [];
  if (!templateSpec(pool)) return { warnings };
  // What the requirements do not change (class, catalog, region) is resolved once; what they allow, once they are final.
  const target = resolvePoolTarget(pool, context);
  canonicaliseValues(pool, target, warnings);
  addRequirementIfAbsent(pool, LabelCapacityType, [CapacityTypeOnDemand], warnings);
  addRequirementIfAbsent(pool, LabelArch, ['amd64'], warnings);
  if (isMonthlyBilled(target.nodeClass) && !restrictsInstanceTypes(pool)) {
    addRequirementIfAbsent(pool, 'karpenter-eu.io/instance-family', [...MonthlyBillingFamilies], warnings);
  }
  fillLimits(pool, context, warnings);
  const scope = scopeOf(pool, target);
  addGpuTaint(pool, scope, context, warnings);
  return { warnings, scope };
}

export function defaultNodePool(pool: KubeObject, context: AdmissionContext): string[] {
  return applyNodePoolDefaults(pool, context).warnings;
}

/**
 * The NodePool as every decision reads it: a copy with the defaults above. Pools that already carry a default
 * (stored by an older version that wrote them) read the same, so nothing drifts on upgrade.
 */
export function effectiveNodePool<T extends NodePool | KubeObject>(pool: T, context: AdmissionContext): T {
  return effectiveNodePoolAndScope(pool as KubeObject, context).pool as T;
}

/** effectiveNodePool and what that pool can launch (resolvePoolScope of it), resolved once for both. */
export function effectiveNodePoolAndScope(pool: KubeObject, context: AdmissionContext): { pool: KubeObject; scope: PoolScope } {
  const copy = deepCopy(pool);
  const { scope } = applyNodePoolDefaults(copy, context);
  return { pool: copy, scope: scope ?? resolvePoolScope(copy, context) };
}

export function defaultOVHNodeClass(nodeClass: KubeObject, context: AdmissionContext): string[] {
  const warnings: string[] = [];
  const spec = asRecord(nodeClass.spec);
  const ovh = context.defaults.ovh;
  if (!spec || !ovh) return warnings;
  for (const name of ['region', 'kubeId'] as const) {
    if (spec[name] !== undefined || !ovh[name]) continue;
    spec[name] = ovh[name];
    warnings.push(
      `OVHNodeClass ${JSON.stringify(nameOf(nodeClass))}: no spec.${name}, the service's configured ${JSON.stringify(ovh[name])} applies`,
    );
  }
  return warnings;
}
