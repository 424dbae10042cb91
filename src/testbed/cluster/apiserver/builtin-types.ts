/** The built-in resources the simulated API server serves (the subset karpenter-eu and kubectl use). */
import { type ResourceType, type ScaleSpec } from './resource-type.js';

/** The apps kinds' Scale: spec.replicas, status.replicas and their pod selector (kube-apiserver's apps storage). */
const appsScale: ScaleSpec = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

interface BuiltinSpec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  subresources?: string[];
  categories?: string[];
  scale?: ScaleSpec;
}

function builtin(spec: BuiltinSpec): ResourceType {
  return {
    group: spec.group,
    version: spec.version,
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    subresources: spec.subresources ?? [],
    strategicMerge: true,
    ...(spec.scale ? { scale: spec.scale } : {}),
  };
}

export const builtinTypes: readonly ResourceType[] = [
  builtin({
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    subresources: ['status', 'binding', 'eviction'],
    categories: ['all'],
  }),
  builtin({ group: '', version: 'v1', kind: 'Binding', plural: 'bindings', namespaced: true }),
  builtin({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'], subresources: ['status'] }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status'],
  }),
  builtin({ group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    shortNames: ['svc'],
    subresources: ['status'],
    categories: ['all'],
  }),
  builtin({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }),
  builtin({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    namespaced: false,
    shortNames: ['pv'],
    subresources: ['status'],
  }),
  builtin({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'] }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    subresources: ['status', 'scale'],
    scale: appsScale,
    categories: ['all'],
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    subresources: ['status', 'scale'],
    scale: appsScale,
    categories: ['all'],
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    subresources: ['status'],
    categories: ['all'],
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    subresources: ['status', 'scale'],
    scale: appsScale,
    categories: ['all'],
  }),
  builtin({
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
  builtin({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'VolumeAttachment',
    plural: 'volumeattachments',
    namespaced: false,
    subresources: ['status'],
  }),
  // Dynamic Resource Allocation (GA in 1.34): what DRA drivers publish and what pods claim.
  builtin({ group: 'resource.k8s.io', version: 'v1', kind: 'DeviceClass', plural: 'deviceclasses', namespaced: false }),
  builtin({
    group: 'resource.k8s.io',
    version: 'v1',
    kind: 'ResourceClaim',
    plural: 'resourceclaims',
    namespaced: true,
    subresources: ['status'],
  }),
  builtin({ group: 'resource.k8s.io', version: 'v1', kind: 'ResourceClaimTemplate', plural: 'resourceclaimtemplates', namespaced: true }),
  builtin({ group: 'resource.k8s.io', version: 'v1', kind: 'ResourceSlice', plural: 'resourceslices', namespaced: false }),
  builtin({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }),
  // RBAC is stored and served (charts install it) but not enforced: every request acts as an administrator.
  builtin({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false }),
  builtin({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
  }),
  builtin({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true }),
  builtin({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true }),
  // Stored only (no network is simulated): the chart ships one.
  builtin({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    namespaced: true,
    shortNames: ['netpol'],
  }),
  builtin({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    subresources: ['status'],
  }),
  builtin({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  }),
  builtin({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
  }),
];
