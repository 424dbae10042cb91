/** List/watch query options parsed once per request and the filters they imply. */
import { badRequest } from './errors.js';
import { type FieldRequirement, matchesFields, parseFieldSelector } from './field-selector.js';
import { type KubeObject } from './kube-object.js';
import { type CompiledLabelSelector } from '../../../domain/requirements/index.js';
import { labelSelectorQuery } from './label-selector.js';
import { type ResourceType } from './resource-type.js';

export interface ListOptions {
  namespace: string;
  labels: CompiledLabelSelector;
  fields: FieldRequirement[];
  limit: number;
  continueFrom: string;
  resourceVersion: string;
  allowWatchBookmarks: boolean;
  timeoutSeconds: number;
}

export function parseListOptions(type: ResourceType, namespace: string, query: URLSearchParams): ListOptions {
  const limitText = query.get('limit');
  const limit = limitText === null || limitText === '' ? 0 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 0)
    throw badRequest(`invalid value for limit: "${limitText ?? ''}"; expected a non-negative integer`);
  const timeoutText = query.get('timeoutSeconds');
  const timeoutSeconds = timeoutText === null || timeoutText === '' ? 0 : Number(timeoutText);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw badRequest(`invalid value for timeoutSeconds: "${timeoutText ?? ''}"`);
  const resourceVersion = query.get('resourceVersion') ?? '';
  if (resourceVersion !== '' && !/^[0-9]+$/.test(resourceVersion)) {
    throw badRequest(`invalid resource version: "${resourceVersion}"; expected a decimal number`);
  }
  return {
    namespace: type.namespaced ? namespace : '',
    labels: labelSelectorQuery(query.get('labelSelector')),
    fields: parseFieldSelector(query.get('fieldSelector'), type),
    limit,
    continueFrom: decodeContinue(query.get('continue')),
    resourceVersion,
    allowWatchBookmarks: query.get('allowWatchBookmarks') === 'true',
    timeoutSeconds,
  };
}

export function matchesListOptions(obj: KubeObject, type: ResourceType, options: ListOptions): boolean {
  if (options.namespace && obj.metadata.namespace !== options.namespace) return false;
  return options.labels.matches(obj.metadata.labels) && matchesFields(obj, type, options.fields);
}

export function encodeContinue(lastKey: string, resourceVersion: number): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: resourceVersion, start: lastKey })).toString('base64url');
}

function decodeContinue(token: string | null): string {
  if (!token) return '';
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start?: unknown };
    if (typeof parsed.start === 'string') return parsed.start;
  } catch {
    // fall through to the error below
  }
  throw badRequest(`continue key is not valid: "${token}"`);
}
