/** A NodePool or NodeClaim references a NodeClass kind/group this service serves; a missing class only warns. */
import { nodeClassRefOf, nameOf, kindOf } from '../object-access.js';
import { NodeClassGroups, findNodeClass } from '../pool-scope.js';
import { emptyFindings, type AdmissionContext, type KubeObject, type RuleFindings } from '../types.js';

export function checkNodeClassRef(object: KubeObject, context: AdmissionContext): RuleFindings {
  const findings = emptyFindings();
  const ref = nodeClassRefOf(object);
  if (!ref || ref.group === '' || ref.kind === '' || ref.name === '') return findings; // the schema reports these
  const path = kindOf(object) === 'NodePool' ? 'spec.template.spec.nodeClassRef' : 'spec.nodeClassRef';
  const served = NodeClassGroups[ref.group];
  if (!served) {
    const accepted = Object.entries(NodeClassGroups).map(([group, s]) => `${group}/${s.kind}`);
    findings.violations.push({
      path: `${path}.group`,
      message: `Unsupported value: ${JSON.stringify(ref.group)}: karpenter-eu serves the NodeClasses ${accepted.join(', ')}`,
    });
    return findings;
  }
  if (ref.kind !== served.kind) {
    findings.violations.push({
      path: `${path}.kind`,
      message: `Unsupported value: ${JSON.stringify(ref.kind)}: group ${ref.group} has the kind ${JSON.stringify(served.kind)}`,
    });
    return findings;
  }
  if (!findNodeClass(context, ref)) {
    findings.warnings.push(
      `${kindOf(object)} ${JSON.stringify(nameOf(object))}: ${ref.kind} ${JSON.stringify(ref.name)} does not exist yet; no node is launched until it does`,
    );
  }
  return findings;
}
