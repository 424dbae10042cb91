/** GPU names in `karpenter-eu.io/instance-gpu-name` must be GPU models the NodePool's cloud offers in its region. */
import { LabelInstanceGPUName } from '../../../apis/v1/labels.js';
import { gpuNames, normaliseGpuName } from '../../instancetypes/gpu-mapping.js';
import { quoteList, requirementsOf, requirementsPath } from '../object-access.js';
import type { PoolScope } from '../pool-scope.js';
import { didYouMean } from '../suggest.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export function checkGpus(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  if (!scope.catalog) return findings;
  const gpuRequirements = requirementsOf(pool).filter(({ spec }) => spec.key === LabelInstanceGPUName && spec.operator === 'In');
  if (gpuRequirements.length === 0) return findings;
  const offered = [...new Set(scope.instanceTypes.flatMap((t) => (t.gpu ? [t.gpu.name] : [])))].sort();
  const where = scope.region ? `${scope.catalog.cloud} region ${scope.region.name}` : scope.catalog.cloud;
  for (const { index, spec } of gpuRequirements) {
    (spec.values ?? []).forEach((value, i) => {
      const path = `${requirementsPath(pool)}[${index}].values[${i}]`;
      const name = normaliseGpuName(value);
      if (!name) {
        findings.violations.push({
          path,
          message: `Unsupported value: ${JSON.stringify(value)}: unknown GPU model${didYouMean(value, gpuNames)}; accepted: ${quoteList(gpuNames)}`,
        });
      } else if (!offered.includes(name)) {
        findings.violations.push({
          path,
          message: `Unsupported value: ${JSON.stringify(value)}: ${where} has no ${name} flavor; GPUs offered there: ${offered.length ? quoteList(offered) : 'none'}`,
        });
      }
    });
  }
  return findings;
}
