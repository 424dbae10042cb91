/**
 * Label sets of the requirements algebra (Karpenter pkg/apis/v1/labels.go at HEAD, plus karpenter-eu's
 * own well-known labels, which play the role a provider's labels play upstream).
 */
import {
  Group,
  LabelArch,
  LabelBilling,
  LabelCapacityType,
  LabelCloud,
  LabelHostname,
  LabelInstanceCPU,
  LabelInstanceFamily,
  LabelInstanceGeneration,
  LabelInstanceGPUCount,
  LabelInstanceGPUManufacturer,
  LabelInstanceGPUMemory,
  LabelInstanceGPUName,
  LabelInstanceMemory,
  LabelInstanceType,
  LabelNodePool,
  LabelOS,
  LabelTopologyRegion,
  LabelTopologyZone,
  LabelWindowsBuild,
} from '../../apis/v1/labels.js';

/** Upstream's list first: the "typo of" hints search it in this order. */
export const WellKnownLabels: ReadonlySet<string> = new Set([
  LabelNodePool,
  LabelTopologyZone,
  LabelTopologyRegion,
  LabelInstanceType,
  LabelArch,
  LabelOS,
  LabelCapacityType,
  LabelWindowsBuild,
  LabelCloud,
  LabelInstanceFamily,
  LabelInstanceGeneration,
  LabelInstanceCPU,
  LabelInstanceMemory,
  LabelInstanceGPUCount,
  LabelInstanceGPUName,
  LabelInstanceGPUMemory,
  LabelInstanceGPUManufacturer,
  LabelBilling,
]);

/** Domains reserved for the autoscaler's own labels (a provider adds its own, as AWS adds karpenter.k8s.aws). */
export const RestrictedLabelDomains: ReadonlySet<string> = new Set([Group, 'karpenter-eu.io']);

/** Labels the kubelet or the cloud sets; never requested or injected. */
export const RestrictedLabels: ReadonlySet<string> = new Set([LabelHostname]);

/** Deprecated beta labels and their GA names; requirements use the GA key. */
export const NormalizedLabels: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': LabelTopologyZone,
  'beta.kubernetes.io/arch': LabelArch,
  'beta.kubernetes.io/os': LabelOS,
  'beta.kubernetes.io/instance-type': LabelInstanceType,
  'failure-domain.beta.kubernetes.io/region': LabelTopologyRegion,
};

/** Values a requirement on these keys must include at least one of (NodePool validation). */
export const WellKnownValuesForRequirements: Readonly<Record<string, ReadonlySet<string>>> = {
  [LabelCapacityType]: new Set(['on-demand', 'spot', 'reserved']),
};

export function normalizeLabelKey(key: string): string {
  return NormalizedLabels[key] ?? key;
}

/** The DNS prefix of a label key ("" when it has none). */
export function labelDomain(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

export class RestrictedLabelError extends Error {
  override readonly name = 'RestrictedLabelError';

  constructor(readonly key: string) {
    super(
      `using label ${key} is not allowed as it might interfere with the internal provisioning logic; ` +
        `specify a well known label: [${[...WellKnownLabels].sort().join(' ')}], ` +
        `or a custom label that does not use a restricted domain: [${[...RestrictedLabelDomains].sort().join(' ')}]`,
    );
  }
}

/** IsRestrictedLabel (HEAD): well-known labels pass; restricted domains and their subdomains and hostname fail. */
export function restrictedLabelError(key: string): RestrictedLabelError | undefined {
  if (WellKnownLabels.has(key)) return undefined;
  const domain = labelDomain(key);
  for (const restricted of RestrictedLabelDomains) {
    if (domain === restricted || domain.endsWith(`.${restricted}`)) return new RestrictedLabelError(key);
  }
  return RestrictedLabels.has(key) ? new RestrictedLabelError(key) : undefined;
}

export function isRestrictedLabel(key: string): boolean {
  return restrictedLabelError(key) !== undefined;
}
