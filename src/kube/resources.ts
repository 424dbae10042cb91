/**
 * The kinds the service reads and writes, with where they live in the API. The typed client-node APIs name
 * their methods regularly (`readNamespacedPod`, `patchNodeStatus`, `listPodForAllNamespaces`), so the
 * `method` stem here is all the client needs; custom kinds go through CustomObjectsApi by group/version/plural.
 */
import {
  NodeClaimGroup,
  NodeClaimPlural,
  NodeClaimVersion,
  NodeOverlayGroup,
  NodeOverlayPlural,
  NodeOverlayVersion,
  NodePoolGroup,
  NodePoolPlural,
  NodePoolVersion,
  OutscaleNodeClassGroup,
  OutscaleNodeClassPlural,
  OutscaleNodeClassVersion,
  OVHNodeClassGroup,
  OVHNodeClassPlural,
  OVHNodeClassVersion,
  ScalewayNodeClassGroup,
  ScalewayNodeClassPlural,
  ScalewayNodeClassVersion,
} from '../apis/index.js';

export type TypedApiName = 'CoreV1Api' | 'AppsV1Api' | 'PolicyV1Api' | 'CoordinationV1Api' | 'StorageV1Api' | 'AdmissionregistrationV1Api';

export interface ResourceKind {
  kind: string;
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
  /** The typed API serving it; undefined for custom resources (CustomObjectsApi). */
  api?: TypedApiName;
  /** Has a status subresource. */
  status: boolean;
}

// eslint-disable-next-line max-params -- one resource a line below, read as a table
function builtin(kind: string, api: TypedApiName, group: string, plural: string, namespaced: boolean, status: boolean): ResourceKind {
  return { kind, api, group, version: 'v1', plural, namespaced, status };
}

function custom(kind: string, group: string, version: string, plural: string): ResourceKind {
  return { kind, group, version, plural, namespaced: false, status: true };
}

/** Dynamic Resource Allocation's kinds (resource.k8s.io/v1, GA in Kubernetes 1.34), read through the generic paths. */
function dra(kind: string, plural: string, namespaced: boolean): ResourceKind {
  return { kind, group: 'resource.k8s.io', version: 'v1', plural, namespaced, status: kind === 'ResourceClaim' };
}

export const Resources = {
  Pod: builtin('Pod', 'CoreV1Api', '', 'pods', true, true),
  Node: builtin('Node', 'CoreV1Api', '', 'nodes', false, true),
  Secret: builtin('Secret', 'CoreV1Api', '', 'secrets', true, false),
  Event: builtin('Event', 'CoreV1Api', '', 'events', true, false),
  DaemonSet: builtin('DaemonSet', 'AppsV1Api', 'apps', 'daemonsets', true, true),
  PodDisruptionBudget: builtin('PodDisruptionBudget', 'PolicyV1Api', 'policy', 'poddisruptionbudgets', true, true),
  Lease: builtin('Lease', 'CoordinationV1Api', 'coordination.k8s.io', 'leases', true, false),
  PersistentVolumeClaim: builtin('PersistentVolumeClaim', 'CoreV1Api', '', 'persistentvolumeclaims', true, true),
  VolumeAttachment: builtin('VolumeAttachment', 'StorageV1Api', 'storage.k8s.io', 'volumeattachments', false, true),
  MutatingWebhookConfiguration: builtin(
    'MutatingWebhookConfiguration',
    'AdmissionregistrationV1Api',
    'admissionregistration.k8s.io',
    'mutatingwebhookconfigurations',
    false,
    false,
  ),
  ValidatingWebhookConfiguration: builtin(
    'ValidatingWebhookConfiguration',
    'AdmissionregistrationV1Api',
    'admissionregistration.k8s.io',
    'validatingwebhookconfigurations',
    false,
    false,
  ),
  NodePool: custom('NodePool', NodePoolGroup, NodePoolVersion, NodePoolPlural),
  NodeClaim: custom('NodeClaim', NodeClaimGroup, NodeClaimVersion, NodeClaimPlural),
  NodeOverlay: custom('NodeOverlay', NodeOverlayGroup, NodeOverlayVersion, NodeOverlayPlural),
  OVHNodeClass: custom('OVHNodeClass', OVHNodeClassGroup, OVHNodeClassVersion, OVHNodeClassPlural),
  ScalewayNodeClass: custom('ScalewayNodeClass', ScalewayNodeClassGroup, ScalewayNodeClassVersion, ScalewayNodeClassPlural),
  OutscaleNodeClass: custom('OutscaleNodeClass', OutscaleNodeClassGroup, OutscaleNodeClassVersion, OutscaleNodeClassPlural),
  ResourceClaim: dra('ResourceClaim', 'resourceclaims', true),
  ResourceClaimTemplate: dra('ResourceClaimTemplate', 'resourceclaimtemplates', true),
  DeviceClass: dra('DeviceClass', 'deviceclasses', false),
  ResourceSlice: dra('ResourceSlice', 'resourceslices', false),
} as const satisfies Record<string, ResourceKind>;

export type ResourceName = keyof typeof Resources;

export function apiVersionOf(resource: ResourceKind): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** The collection path a watch uses: `/api/v1/pods`, `/apis/karpenter.sh/v1/nodepools`, namespaced when asked. */
export function collectionPath(resource: ResourceKind, namespace?: string): string {
  const base = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  const ns = resource.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${resource.plural}`;
}
