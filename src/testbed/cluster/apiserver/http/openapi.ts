/**
 * OpenAPI v3 as kube-apiserver publishes it for what kubectl reads: the index (`/openapi/v3`), and per group
 * version the operations (kubectl 1.32 decides that the server validates fields itself when the PATCH operation of
 * a kind lists the `fieldValidation` parameter) and, for custom resources, the CRD version's schema under
 * components.schemas tagged with its group/version/kind, which `kubectl explain` looks up. Built-in kinds carry
 * no schema here (objects stay unstructured).
 */
import { type ResourceRegistry } from '../resource-registry.js';

function groupVersionPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openApiV3Root(registry: ResourceRegistry): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [group, versions] of registry.groups()) {
    for (const version of versions) {
      const path = groupVersionPath(group, version);
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=sim` };
    }
  }
  return { paths };
}

export function openApiV3GroupVersion(registry: ResourceRegistry, path: string): object | undefined {
  const match = /^(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (!match) return undefined;
  const group = match[2] ?? '';
  const version = match[1] ?? match[3] ?? '';
  if (!registry.groups().get(group)?.includes(version)) return undefined;
  const paths: Record<string, object> = {};
  const parameters = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
    name,
    in: 'query',
    schema: { type: 'string', uniqueItems: true },
  }));
  for (const type of registry.all().filter((t) => t.group === group && t.version === version)) {
    const gvk = { group, version, kind: type.kind };
    const base = `/${path}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
    paths[base] = { post: { 'x-kubernetes-group-version-kind': gvk, 'x-kubernetes-action': 'post', parameters } };
    paths[`${base}/{name}`] = {
      patch: { 'x-kubernetes-group-version-kind': gvk, 'x-kubernetes-action': 'patch', parameters },
      put: { 'x-kubernetes-group-version-kind': gvk, 'x-kubernetes-action': 'put', parameters },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas: crdSchemas(registry, group, version) },
  };
}

const objectMetaDescription =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** `karpenter.sh` → `sh.karpenter`: the reversed-domain prefix kube-apiserver names CRD schemas with. */
function schemaName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/** The CRD version's schema as kube-apiserver publishes it: apiVersion, kind and metadata described, GVK tagged. */
function crdSchemas(registry: ResourceRegistry, group: string, version: string): Record<string, object> {
  const schemas: Record<string, object> = {};
  for (const type of registry.all().filter((t) => t.group === group && t.version === version && t.schema)) {
    const schema = type.schema as { properties?: Record<string, object> };
    schemas[schemaName(group, version, type.kind)] = {
      ...schema,
      properties: {
        apiVersion: {
          type: 'string',
          description:
            'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
        },
        kind: {
          type: 'string',
          description:
            'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to.',
        },
        metadata: { type: 'object', description: objectMetaDescription },
        ...(schema.properties ?? {}),
      },
      'x-kubernetes-group-version-kind': [{ group, version, kind: type.kind }],
    };
  }
  return schemas;
}
