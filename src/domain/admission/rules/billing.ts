/**
 * OVH monthly billing exists only for gen2 flavors (b2, c2, d2, r2): an OVHNodeClass with `monthlyBilled`
 * may only back NodePools restricted to those, checked from both sides (NodePool and NodeClass changes).
 */
import { LabelBilling, LabelCapacityType, LabelTopologyZone } from '../../../apis/v1/labels.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { field, kindOf, nameOf, nodeClassRefOf, quoteList, requirementsOf } from '../object-access.js';
import { resolvePoolScope, type PoolScope } from '../pool-scope.js';
import { emptyFindings, type AdmissionContext, type KubeObject, type RuleFindings } from '../types.js';

export const MonthlyBillingFamilies = ['b2', 'c2', 'd2', 'r2'] as const;

export function isMonthlyBilled(nodeClass: KubeObject | undefined): boolean {
  return kindOf(nodeClass) === 'OVHNodeClass' && field(nodeClass, 'spec', 'monthlyBilled') === true;
}

/** Whether the requirements restrict which flavors are used at all (zone, capacity type and billing aside). */
export function restrictsInstanceTypes(pool: KubeObject): boolean {
  const ignored = new Set([LabelTopologyZone, LabelCapacityType, LabelBilling, 'kubernetes.io/arch', 'kubernetes.io/os']);
  return requirementsOf(pool).some(
    ({ spec }) =>
      !ignored.has(normalizeLabelKey(spec.key)) &&
      (spec.key.startsWith('karpenter-eu.io/') ||
        spec.key === 'node.kubernetes.io/instance-type' ||
        spec.key === 'beta.kubernetes.io/instance-type'),
  );
}

function nonGen2(scope: PoolScope): string[] {
  return scope.allowed
    .filter((t) => !(MonthlyBillingFamilies as readonly string[]).includes(t.labels['karpenter-eu.io/instance-family'] ?? ''))
    .map((t) => t.name);
}

const gen2Fix = `restrict it with karpenter-eu.io/instance-family In [${MonthlyBillingFamilies.join(', ')}]`;

export function checkPoolBilling(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  if (!isMonthlyBilled(scope.nodeClass)) return findings;
  const className = nameOf(scope.nodeClass);
  if (!restrictsInstanceTypes(pool)) {
    findings.violations.push({
      path: 'spec.template.spec.requirements',
      message: `Required value: OVHNodeClass ${JSON.stringify(className)} is monthlyBilled, which only gen2 flavors offer; ${gen2Fix}`,
    });
    return findings;
  }
  const others = nonGen2(scope);
  if (others.length > 0) {
    findings.violations.push({
      path: 'spec.template.spec.requirements',
      message: `Invalid value: "array": allows flavors without monthly billing (${quoteList(others, 6)}) but OVHNodeClass ${JSON.stringify(className)} is monthlyBilled; ${gen2Fix} or use an hourly OVHNodeClass`,
    });
  }
  return findings;
}

/** Turning monthlyBilled on: every NodePool already using the class must be gen2-only. */
export function checkNodeClassBilling(nodeClass: KubeObject, context: AdmissionContext): RuleFindings {
  const findings = emptyFindings();
  if (!isMonthlyBilled(nodeClass)) return findings;
  const withThisClass: AdmissionContext = {
    ...context,
    nodeClasses: [nodeClass, ...context.nodeClasses.filter((c) => !(kindOf(c) === 'OVHNodeClass' && nameOf(c) === nameOf(nodeClass)))],
  };
  for (const pool of context.nodePools) {
    const ref = nodeClassRefOf(pool);
    if (ref?.kind !== 'OVHNodeClass' || ref.name !== nameOf(nodeClass)) continue;
    const others = restrictsInstanceTypes(pool) ? nonGen2(resolvePoolScope(pool, withThisClass)) : ['every flavor'];
    if (others.length === 0) continue;
    findings.violations.push({
      path: 'spec.monthlyBilled',
      message: `Invalid value: true: NodePool ${JSON.stringify(nameOf(pool))} uses this class and allows flavors without monthly billing (${quoteList(others, 6)}); ${gen2Fix} there first, or keep monthlyBilled false`,
    });
  }
  return findings;
}
