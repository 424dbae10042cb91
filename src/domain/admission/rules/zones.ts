/** `topology.kubernetes.io/zone` values must be zones of the NodeClass's region (or, without one, of the cloud). */
import { LabelTopologyZone } from '../../../apis/v1/labels.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { quoteList, requirementsOf, requirementsPath } from '../object-access.js';
import type { PoolScope } from '../pool-scope.js';
import { didYouMean } from '../suggest.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export function checkZones(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  if (!scope.catalog) return findings;
  const accepted = scope.region ? scope.region.zones : scope.catalog.regions.flatMap((r) => r.zones);
  const where = scope.region ? `region ${scope.region.name}` : `${scope.catalog.cloud}`;
  for (const { index, spec } of requirementsOf(pool)) {
    if (normalizeLabelKey(spec.key) !== LabelTopologyZone || (spec.operator !== 'In' && spec.operator !== 'NotIn')) continue;
    (spec.values ?? []).forEach((zone, i) => {
      if (accepted.includes(zone)) return;
      findings.violations.push({
        path: `${requirementsPath(pool)}[${index}].values[${i}]`,
        message: `Unsupported value: ${JSON.stringify(zone)}: not a zone of ${where}${didYouMean(zone, accepted)}; accepted: ${quoteList(accepted)}`,
      });
    });
  }
  return findings;
}
