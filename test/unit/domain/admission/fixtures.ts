/** Objects and contexts for the admission tests: an OVH GRA7 / EU-WEST-PAR world with the bundled catalogs. */
import { CloudNames, type CloudName } from '../../../../src/apis/v1/labels.js';
import { loadCatalog } from '../../../../src/catalog/index.js';
import type { CatalogFile } from '../../../../src/catalog/types.js';
import type { AdmissionContext, AdmissionDefaults, KubeObject } from '../../../../src/domain/admission/index.js';

export const catalogs = Object.fromEntries(CloudNames.map((c) => [c, loadCatalog(c)])) as Record<CloudName, CatalogFile>;

export const defaults: AdmissionDefaults = { gpuTaint: true, globalCredentials: {} };

export const serviceName = '0123456789abcdef0123456789abcdef';
export const kubeId = '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03';

export function ovhClass(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
    kind: 'OVHNodeClass',
    metadata: { name },
    spec: {
      serviceName,
      kubeId,
      region: 'EU-WEST-PAR',
      credentialsSecretRef: { name: 'ovh-credentials', namespace: 'karpenter' },
      ...spec,
    },
  };
}

export function nodePool(
  name: string,
  spec: {
    requirements?: unknown[];
    limits?: Record<string, unknown>;
    nodeClass?: string;
    group?: string;
    kind?: string;
    extra?: Record<string, unknown>;
    template?: Record<string, unknown>;
  } = {},
): KubeObject {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: {
            group: spec.group ?? 'karpenter.ovhcloud.sh',
            kind: spec.kind ?? 'OVHNodeClass',
            name: spec.nodeClass ?? 'default',
          },
          requirements: spec.requirements ?? [],
          ...spec.template,
        },
      },
      ...(spec.limits ? { limits: spec.limits } : {}),
      ...spec.extra,
    },
  };
}

export const req = (key: string, operator: string, ...values: string[]): Record<string, unknown> => ({ key, operator, values });

export function context(objects: KubeObject[] = [ovhClass('default')], overrides: Partial<AdmissionContext> = {}): AdmissionContext {
  const kinds = new Set(['OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass']);
  return {
    operation: 'CREATE',
    nodePools: objects.filter((o) => o.kind === 'NodePool'),
    nodeClasses: objects.filter((o) => kinds.has(String(o.kind))),
    nodeClaims: objects.filter((o) => o.kind === 'NodeClaim'),
    catalogs,
    defaults,
    ...overrides,
  };
}
