/** Parses a request path into discovery or a resource target (group, version, namespace, name, subresource). */
import { notFoundPath } from '../errors.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType } from '../resource-type.js';

export type RequestTarget =
  | { kind: 'root'; path: string }
  | { kind: 'group'; group: string }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'resource'; type: ResourceType; namespace: string; name: string; subresource: string; legacyWatch: boolean };

export function parseTarget(pathname: string, registry: ResourceRegistry): RequestTarget {
  const parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { kind: 'root', path: '/api' };
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { kind: 'root', path: '/apis' };
    group = parts[1] ?? '';
    if (parts.length === 2) return { kind: 'group', group };
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return { kind: 'root', path: `/${parts.join('/')}` };
  }
  if (rest.length === 0) return { kind: 'groupVersion', group, version };
  const legacyWatch = rest[0] === 'watch';
  if (legacyWatch) rest = rest.slice(1);
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const candidate = registry.find(group, version, rest[2] ?? '');
    if (candidate?.namespaced) {
      namespace = rest[1] ?? '';
      rest = rest.slice(2);
    }
  }
  const [plural = '', name = '', subresource = '', ...extra] = rest;
  const type = registry.find(group, version, plural);
  if (!type || extra.length > 0) throw notFoundPath();
  if (subresource && !type.subresources.includes(subresource)) throw notFoundPath();
  return { kind: 'resource', type, namespace, name, subresource, legacyWatch };
}
