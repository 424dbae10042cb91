/**
 * NodeClass rules beyond the schema: regions and zones the catalogs know, Outscale tags that would override
 * the CCM's and the controller's own, credentials present unless configured globally, Secret references the
 * operator's configuration allows (and labelled, when the Secret is at hand), and identity fields frozen while
 * launched NodeClaims use the class.
 */
import { joinPinning } from '../../nodeclass/join-verification.js';
import type { CloudName } from '../../../apis/v1/labels.js';
import { asArray, asRecord, asString, field, kindOf, nameOf, nodeClassRefOf, quoteList } from '../object-access.js';
import {
  meansServiceCredentials,
  nodeClassSecretReferences,
  secretLabelRefusal,
  secretReferenceRefusal,
  type SecretAccessPolicy,
  type SecretName,
  serviceCredentialsRefusal,
} from '../../secrets/secret-access.js';
import { didYouMean } from '../suggest.js';
import { isLiveCatalog, reportUnknownValue } from './catalog-authority.js';
import { emptyFindings, type AdmissionContext, type KubeObject, type RuleFindings } from '../types.js';

const cloudOfKind: Readonly<Record<string, CloudName>> = {
  OVHNodeClass: 'ovhcloud',
  ScalewayNodeClass: 'scaleway',
  OutscaleNodeClass: 'outscale',
};

/** Identity fields: changing them would orphan the instances the NodeClaims already run. */
const identityFields: Readonly<Record<string, readonly string[]>> = {
  OVHNodeClass: ['serviceName', 'kubeId', 'region'],
  ScalewayNodeClass: ['projectId'],
  OutscaleNodeClass: ['region', 'clusterId'],
};

/** Tags the Outscale CCM and the controller set on every VM. */
const reservedOutscaleTag = (key: string): boolean =>
  key === 'karpenter.sh/managed-by' || key === 'OscK8sNodeName' || key.startsWith('OscK8sClusterID/');

function checkRegion(path: string, region: string | undefined, cloud: CloudName, context: AdmissionContext, findings: RuleFindings): void {
  const catalog = context.catalogs[cloud];
  if (region === undefined || !catalog) return;
  const names = catalog.regions.map((r) => r.name);
  if (names.includes(region)) return;
  const violation = {
    path,
    message: `Unsupported value: ${JSON.stringify(region)}: unknown ${cloud} region${didYouMean(region, names)}; accepted: ${quoteList(names)}`,
  };
  reportUnknownValue(findings, violation, catalog, isLiveCatalog(context, cloud));
}

function checkScalewayZones(nodeClass: KubeObject, context: AdmissionContext, findings: RuleFindings): void {
  const catalog = context.catalogs.scaleway;
  if (!catalog) return;
  const all = catalog.regions.flatMap((r) => r.zones);
  const zones = asArray(field(nodeClass, 'spec', 'zones')).filter((z): z is string => typeof z === 'string');
  zones.forEach((zone, i) => {
    if (all.includes(zone)) return;
    const violation = {
      path: `spec.zones[${i}]`,
      message: `Unsupported value: ${JSON.stringify(zone)}: unknown Scaleway zone${didYouMean(zone, all)}; accepted: ${quoteList(all)}`,
    };
    reportUnknownValue(findings, violation, catalog, isLiveCatalog(context, 'scaleway'));
  });
  const regions = new Set(zones.map((z) => z.replace(/-[0-9]+$/, '')));
  if (regions.size > 1)
    findings.violations.push({
      path: 'spec.zones',
      message: `Invalid value: ${JSON.stringify(zones.join(','))}: all zones must be in one region (found ${[...regions].join(', ')}); use one ScalewayNodeClass per region`,
    });
}

/** A kubeadm join that cannot verify the cluster CA is admitted (it works) with the warning saying so and how to pin it. */
function checkJoinPinning(nodeClass: KubeObject, findings: RuleFindings): void {
  const join = asRecord(field(nodeClass, 'spec', 'join'));
  if (!join) return;
  const pinning = joinPinning({
    ...(asString(join.caBundle) !== undefined ? { caBundle: asString(join.caBundle) } : {}),
    caCertHashes: asArray(join.caCertHashes).filter((h): h is string => typeof h === 'string'),
  });
  if (!pinning.pinned) findings.warnings.push(pinning.message);
}

function checkOutscale(nodeClass: KubeObject, context: AdmissionContext, findings: RuleFindings): void {
  for (const key of Object.keys(asRecord(field(nodeClass, 'spec', 'tags')) ?? {})) {
    if (reservedOutscaleTag(key))
      findings.violations.push({
        path: `spec.tags[${key}]`,
        message: `Forbidden: tag ${JSON.stringify(key)} is set by the controller and the Outscale CCM (karpenter.sh/managed-by, OscK8sClusterID/<cluster>, OscK8sNodeName); remove it`,
      });
  }
  const region = context.catalogs.outscale?.regions.find((r) => r.name === asString(field(nodeClass, 'spec', 'region')));
  if (!region) return;
  asArray(field(nodeClass, 'spec', 'subnets')).forEach((subnet, i) => {
    const subregion = asString(field(subnet, 'subregion'));
    if (subregion !== undefined && !region.zones.includes(subregion)) {
      findings.violations.push({
        path: `spec.subnets[${i}].subregion`,
        message: `Unsupported value: ${JSON.stringify(subregion)}: not a subregion of ${region.name}${didYouMean(subregion, region.zones)}; accepted: ${quoteList(region.zones)}`,
      });
    }
  });
}

function checkCredentials(nodeClass: KubeObject, cloud: CloudName, context: AdmissionContext, findings: RuleFindings): void {
  if (field(nodeClass, 'spec', 'credentialsSecretRef') !== undefined || context.defaults.globalCredentials[cloud]) return;
  findings.violations.push({
    path: 'spec.credentialsSecretRef',
    message: `Required value: no ${cloud} credentials are configured for the service; reference a Secret with {name, namespace}, or configure global credentials`,
  });
}

/**
 * Secret references the operator's configuration does not allow (run time refuses them too, and by label);
 * credentials naming the operator's own Secret stand for the service's, which must then exist for the cloud.
 */
function checkSecretReferences(nodeClass: KubeObject, cloud: CloudName, context: AdmissionContext, findings: RuleFindings): void {
  const policy = context.defaults.secretAccess;
  if (!policy) return;
  for (const { path, ref } of nodeClassSecretReferences(nodeClass)) {
    if (path === 'spec.credentialsSecretRef' && meansServiceCredentials(policy, ref)) {
      if (!context.defaults.globalCredentials[cloud])
        findings.violations.push({ path, message: `Forbidden: ${serviceCredentialsRefusal(ref, cloud)}` });
      continue;
    }
    const refusal = secretReferenceRefusal(policy, ref);
    if (refusal) findings.violations.push({ path, message: `Forbidden: ${refusal}` });
    else warnUnlabelled(path, ref, policy, context, findings);
  }
}

function warnUnlabelled(
  path: string,
  ref: SecretName,
  policy: SecretAccessPolicy,
  context: AdmissionContext,
  findings: RuleFindings,
): void {
  const secret = context.secrets?.find((s) => nameOf(s) === ref.name && asString(field(s, 'metadata', 'namespace')) === ref.namespace);
  const labels = asRecord(field(secret, 'metadata', 'labels')) as Record<string, string> | undefined;
  const unlabelled = secret ? secretLabelRefusal(policy, ref, labels) : undefined;
  if (unlabelled) findings.warnings.push(`${path}: ${unlabelled}`);
}

function checkIdentity(nodeClass: KubeObject, context: AdmissionContext, findings: RuleFindings): void {
  const old = context.oldObject;
  if (context.operation !== 'UPDATE' || !old) return;
  const kind = kindOf(nodeClass);
  // Only a launched claim (it has a providerID) has an instance made from the old values: a placeholder
  // (a project id, a region) that never launched anything can still be corrected, and the claims retry with it.
  const claims = context.nodeClaims.filter(
    (c) => nodeClassRefOf(c)?.kind === kind && nodeClassRefOf(c)?.name === nameOf(nodeClass) && asString(field(c, 'status', 'providerID')),
  );
  if (claims.length === 0) return;
  for (const name of identityFields[kind] ?? []) {
    const before = field(old, 'spec', name);
    const after = field(nodeClass, 'spec', name);
    if (before === undefined || JSON.stringify(before) === JSON.stringify(after)) continue;
    findings.violations.push({
      path: `spec.${name}`,
      message: `Forbidden: immutable while ${claims.length} launched NodeClaim(s) use this class (was ${JSON.stringify(before)}); create a new ${kind} and point the NodePools at it`,
    });
  }
}

export function checkNodeClass(nodeClass: KubeObject, context: AdmissionContext): RuleFindings {
  const findings = emptyFindings();
  const kind = kindOf(nodeClass);
  const cloud = cloudOfKind[kind];
  if (!cloud) return findings;
  if (kind === 'OVHNodeClass') checkRegion('spec.region', asString(field(nodeClass, 'spec', 'region')), cloud, context, findings);
  if (kind === 'ScalewayNodeClass') {
    checkScalewayZones(nodeClass, context, findings);
    checkJoinPinning(nodeClass, findings);
  }
  if (kind === 'OutscaleNodeClass') {
    checkRegion('spec.region', asString(field(nodeClass, 'spec', 'region')), cloud, context, findings);
    checkOutscale(nodeClass, context, findings);
  }
  checkCredentials(nodeClass, cloud, context, findings);
  checkSecretReferences(nodeClass, cloud, context, findings);
  checkIdentity(nodeClass, context, findings);
  return findings;
}
