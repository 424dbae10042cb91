/** NodePool `spec.replicas`: refused, because nothing here keeps a static NodePool's node count. */
import { staticNodePoolRefusal } from '../../nodepool/static.js';
import { field } from '../object-access.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export function checkStaticNodePool(pool: KubeObject): RuleFindings {
  const findings = emptyFindings();
  const replicas = field(pool, 'spec', 'replicas');
  if (replicas !== undefined) findings.violations.push({ path: 'spec.replicas', message: staticNodePoolRefusal(replicas) });
  return findings;
}
