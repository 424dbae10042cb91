/**
 * `node.kubernetes.io/instance-type` values must be flavors of the NodePool's cloud and region, the
 * requirements must leave at least one flavor, and `karpenter.sh/capacity-type` can only be on-demand.
 */
import { CapacityTypeOnDemand, LabelCapacityType, LabelInstanceType } from '../../../apis/v1/labels.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { quoteList, requirementsOf, requirementsPath } from '../object-access.js';
import { flavorNamesOf, instanceTypeNamesOf, type PoolScope } from '../pool-scope.js';
import { didYouMean } from '../suggest.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';
import { reportUnknownValue } from './catalog-authority.js';

/** Reports values of `node.kubernetes.io/instance-type` the catalog does not sell in the region; returns how many. */
function checkFlavorNames(pool: KubeObject, scope: PoolScope, findings: RuleFindings): number {
  const catalog = scope.catalog;
  if (!catalog) return 0;
  let unknown = 0;
  const inRegion = instanceTypeNamesOf(scope.instanceTypes);
  const inCloud = flavorNamesOf(catalog).set;
  for (const { index, spec } of requirementsOf(pool)) {
    if (normalizeLabelKey(spec.key) !== LabelInstanceType || (spec.operator !== 'In' && spec.operator !== 'NotIn')) continue;
    (spec.values ?? []).forEach((value, i) => {
      if (inRegion.set.has(value)) return;
      const path = `${requirementsPath(pool)}[${index}].values[${i}]`;
      const elsewhere = inCloud.has(value) && scope.region;
      const detail = elsewhere
        ? `flavor not offered in region ${scope.region?.name}`
        : `unknown ${catalog.cloud} flavor${didYouMean(value, inRegion.names)}`;
      unknown++;
      const violation = {
        path,
        message: `Unsupported value: ${JSON.stringify(value)}: ${detail}; accepted: ${quoteList(inRegion.names)} (see karpenter-eu catalog --cloud ${catalog.cloud})`,
      };
      reportUnknownValue(findings, violation, catalog, scope.live);
    });
  }
  return unknown;
}

function checkCapacityType(pool: KubeObject, findings: RuleFindings): void {
  for (const { index, spec } of requirementsOf(pool)) {
    if (spec.key !== LabelCapacityType || spec.operator !== 'In') continue;
    (spec.values ?? []).forEach((value, i) => {
      if (value === CapacityTypeOnDemand) return;
      findings.violations.push({
        path: `${requirementsPath(pool)}[${index}].values[${i}]`,
        message: `Unsupported value: ${JSON.stringify(value)}: OVHcloud, Scaleway and Outscale sell no spot or reserved capacity; accepted: "${CapacityTypeOnDemand}"`,
      });
    });
  }
}

export function checkInstanceTypes(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  checkCapacityType(pool, findings);
  const unknownFlavors = checkFlavorNames(pool, scope, findings);
  if (findings.violations.length === 0 && scope.catalog && scope.instanceTypes.length > 0 && scope.allowed.length === 0) {
    const violation = {
      path: requirementsPath(pool),
      message: `Invalid value: "array": no ${scope.catalog.cloud} flavor${scope.region ? ` in region ${scope.region.name}` : ''} satisfies these requirements, so the NodePool could never launch a node; widen them (see karpenter-eu catalog --cloud ${scope.catalog.cloud})`,
    };
    // Flavors only a newer catalog may know leave nothing here, but may well launch: not proof enough to deny.
    if (unknownFlavors > 0 && !scope.live)
      findings.warnings.push(
        `${violation.path}: ${violation.message.replace(/^Invalid value: "array": /, '')}, unless the flavors the bundled catalog of ${scope.catalog.retrieved} does not know exist`,
      );
    else findings.violations.push(violation);
  }
  return findings;
}
