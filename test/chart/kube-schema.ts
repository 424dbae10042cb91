/**
 * Checks rendered objects against the Kubernetes API schemas: the kind must be known, every field must exist in
 * the kind's schema (client-node's generated models, which mirror the OpenAPI spec: a field the model drops on
 * a round trip is unknown to the API server), and the fields the API requires must be set.
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';

/** apiVersion/kind → client-node model; kinds served by add-ons (cert-manager, Prometheus operator) have none. */
const models: Readonly<Record<string, string | null>> = {
  'v1/ServiceAccount': 'V1ServiceAccount',
  'v1/Service': 'V1Service',
  'v1/Secret': 'V1Secret',
  'apps/v1/Deployment': 'V1Deployment',
  'policy/v1/PodDisruptionBudget': 'V1PodDisruptionBudget',
  'networking.k8s.io/v1/NetworkPolicy': 'V1NetworkPolicy',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'V1ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'V1ClusterRoleBinding',
  'rbac.authorization.k8s.io/v1/Role': 'V1Role',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'V1RoleBinding',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': 'V1MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': 'V1ValidatingWebhookConfiguration',
  'apiextensions.k8s.io/v1/CustomResourceDefinition': 'V1CustomResourceDefinition',
  'cert-manager.io/v1/Issuer': null,
  'cert-manager.io/v1/Certificate': null,
  'monitoring.coreos.com/v1/ServiceMonitor': null,
};

/** Required fields per kind, as paths; `[]` walks every element of a list. From the Kubernetes OpenAPI spec. */
const requiredFields: Readonly<Record<string, readonly string[]>> = {
  Deployment: [
    'spec.selector',
    'spec.template',
    'spec.template.spec.containers',
    'spec.template.spec.containers[].name',
    'spec.template.spec.containers[].ports[].containerPort',
    'spec.template.spec.containers[].env[].name',
  ],
  Service: ['spec.ports[].port'],
  ClusterRole: ['rules[].verbs'],
  Role: ['rules[].verbs'],
  ClusterRoleBinding: ['roleRef.apiGroup', 'roleRef.kind', 'roleRef.name', 'subjects[].kind', 'subjects[].name'],
  RoleBinding: ['roleRef.apiGroup', 'roleRef.kind', 'roleRef.name', 'subjects[].kind', 'subjects[].name'],
  MutatingWebhookConfiguration: [
    'webhooks[].name',
    'webhooks[].clientConfig',
    'webhooks[].sideEffects',
    'webhooks[].admissionReviewVersions',
  ],
  ValidatingWebhookConfiguration: [
    'webhooks[].name',
    'webhooks[].clientConfig',
    'webhooks[].sideEffects',
    'webhooks[].admissionReviewVersions',
  ],
  CustomResourceDefinition: [
    'spec.group',
    'spec.names.plural',
    'spec.names.kind',
    'spec.scope',
    'spec.versions[].name',
    'spec.versions[].served',
    'spec.versions[].storage',
  ],
  // As cert-manager's CRD: a CA Certificate has a commonName and no dnsNames.
  Certificate: ['spec.secretName', 'spec.issuerRef.name'],
  ServiceMonitor: ['spec.selector', 'spec.endpoints[].port'],
};

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Paths present in `original` but dropped by the model round trip. */
function droppedFields(original: Json, roundTripped: Json, path: string): string[] {
  if (Array.isArray(original)) {
    return original.flatMap((item, i) => droppedFields(item, Array.isArray(roundTripped) ? roundTripped[i] : undefined, `${path}[${i}]`));
  }
  if (!isObject(original)) return [];
  const other = isObject(roundTripped) ? roundTripped : {};
  return Object.entries(original).flatMap(([key, value]) => {
    const child = path ? `${path}.${key}` : key;
    return key in other ? droppedFields(value, other[key], child) : [child];
  });
}

/** Values at a path like `a.b[].c`; missing steps give undefined. */
function valuesAt(object: Json, path: string): Json[] {
  let current: Json[] = [object];
  for (const part of path.split('.')) {
    const list = part.endsWith('[]');
    const key = list ? part.slice(0, -2) : part;
    current = current.flatMap((value) => {
      const next = isObject(value) ? value[key] : undefined;
      if (!list) return [next];
      return Array.isArray(next) ? next : [];
    });
  }
  return current;
}

function missing(value: Json): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

export function schemaProblems(object: Record<string, Json>): string[] {
  const apiVersion = String(object.apiVersion ?? '');
  const kind = String(object.kind ?? '');
  const key = `${apiVersion}/${kind}`;
  if (!(key in models)) return [`${key}: unknown apiVersion/kind`];
  const problems: string[] = [];
  const metadata = isObject(object.metadata) ? object.metadata : {};
  if (typeof metadata.name !== 'string' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(metadata.name) || metadata.name.length > 253) {
    problems.push(`${key}: metadata.name ${JSON.stringify(metadata.name)} is not a DNS subdomain`);
  }
  const model = models[key];
  if (model) {
    const roundTripped: Json = ObjectSerializer.serialize(ObjectSerializer.deserialize(object, model, ''), model, '');
    for (const field of droppedFields(object, roundTripped, '')) problems.push(`${key} ${metadata.name}: unknown field ${field}`);
  }
  for (const path of requiredFields[kind] ?? []) {
    const parentPath = path.includes('[]') ? path.slice(0, path.lastIndexOf('[]') + 2) : undefined;
    const parents = parentPath ? valuesAt(object, parentPath) : [object];
    const leaf = parentPath ? path.slice(parentPath.length + 1) : path;
    for (const parent of parents) {
      if (leaf && missing(valuesAt(parent, leaf)[0])) problems.push(`${key} ${metadata.name}: required field ${path} is missing`);
    }
  }
  return problems;
}
