/**
 * Who may say a region or flavor does not exist. A catalog the service read from the cloud is proof: an
 * unknown value is denied. The bundled catalog is a dated file that may be behind the cloud: the same value
 * is admitted with a warning that names it, where it is, the catalog's date and what that catalog knows.
 */
import type { CloudName } from '../../../apis/v1/labels.js';
import type { CatalogFile } from '../../../catalog/types.js';
import type { AdmissionContext, RuleFindings, Violation } from '../types.js';

/** Whether the cloud's region list (no `region`), or a region's flavor list, was read from the cloud. */
export function isLiveCatalog(context: Pick<AdmissionContext, 'liveCatalogs'>, cloud: CloudName | undefined, region?: string): boolean {
  const scope = cloud === undefined ? undefined : context.liveCatalogs?.[cloud];
  if (!scope) return false;
  return region === undefined ? scope.regionsListed : scope.flavorsOf.some((r) => r.toLowerCase() === region.toLowerCase());
}

/** Denies when the catalog is live; otherwise warns with the same facts, saying why it is not a denial. */
export function reportUnknownValue(findings: RuleFindings, violation: Violation, catalog: CatalogFile, live: boolean): void {
  if (live) {
    findings.violations.push(violation);
    return;
  }
  const detail = violation.message.replace(/^Unsupported value: /, '');
  findings.warnings.push(
    `${violation.path}: ${detail} — by the bundled ${catalog.cloud} catalog of ${catalog.retrieved}, which may be behind the cloud: admitted; the running service checks it against the cloud's own list`,
  );
}
