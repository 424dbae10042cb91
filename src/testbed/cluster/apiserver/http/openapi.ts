/**
 * A minimal OpenAPI v3: kubectl 1.32 decides that the server validates fields itself when the PATCH
 * operation of a kind lists the `fieldValidation` parameter; no schemas (objects stay unstructured).
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
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: {} } };
}
