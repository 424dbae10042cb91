/** Discovery documents (/api, /apis, group/version resource lists, /version) as kubectl reads them. */
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType, apiVersionOf } from '../resource-type.js';

const mainVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function versionInfo(): object {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-karpenter-eu-sim',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.23',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function coreVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDoc(name: string, versions: string[]): object {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

export function groupList(registry: ResourceRegistry): object {
  const groups = [...registry.groups().entries()].filter(([g]) => g !== '').map(([g, versions]) => groupDoc(g, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function group(registry: ResourceRegistry, name: string): object | undefined {
  const versions = registry.groups().get(name);
  return versions && name !== '' ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(name, versions) } : undefined;
}

function subresourceVerbs(sub: string): string[] {
  if (sub === 'status' || sub === 'scale') return ['get', 'patch', 'update'];
  return ['create'];
}

/** Subresources served as another group's kind (policy/v1 Eviction, autoscaling/v1 Scale). */
function subresourceKind(type: ResourceType, sub: string): object {
  if (sub === 'eviction') return { kind: 'Eviction', group: 'policy', version: 'v1' };
  if (sub === 'scale') return { kind: 'Scale', group: 'autoscaling', version: 'v1' };
  return { kind: sub === 'binding' ? 'Binding' : type.kind };
}

export function resourceList(registry: ResourceRegistry, groupName: string, version: string): object | undefined {
  const types = registry.all().filter((t) => t.group === groupName && t.version === version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap((t: ResourceType) => [
    {
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.kind === 'Binding' ? ['create'] : mainVerbs,
      ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
      ...(t.categories.length ? { categories: t.categories } : {}),
    },
    ...t.subresources.map((sub) => ({
      name: `${t.plural}/${sub}`,
      singularName: '',
      namespaced: t.namespaced,
      ...subresourceKind(t, sub),
      verbs: subresourceVerbs(sub),
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group: groupName, version }), resources };
}
