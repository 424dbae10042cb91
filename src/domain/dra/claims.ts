/**
 * A pod's `spec.resourceClaims` resolved to what must be allocated for it: each named ResourceClaim (shared by
 * every pod naming it, allocated once) or ResourceClaimTemplate (one claim per pod), its requests compiled with
 * the selectors of the DeviceClass they name. A claim that is already allocated pins its pods to the node it was
 * allocated on. A missing object or a selector that does not compile is an error naming it.
 */
import type { V1PodStatus } from '@kubernetes/client-node';
import type { PodLike } from '../scheduling/types.js';
import type { DeviceSelector, DeviceSelectorCompiler } from './cel.js';
import type { DeviceClass, DeviceRequest, ExactDeviceRequest, ResourceClaim, ResourceClaimSpec, ResourceClaimTemplate } from './types.js';

/** One way to satisfy a request: `count` devices (or all of them) matching every selector. */
export interface RequestAlternative {
  name: string;
  selectors: readonly DeviceSelector[];
  all: boolean;
  count: number;
  /** Equal signatures select the same devices (a cache key). */
  signature: string;
}

/** A request: its alternatives in order (`exactly` has one; `firstAvailable` the first that can be allocated wins). */
export interface CompiledRequest {
  name: string;
  alternatives: readonly RequestAlternative[];
}

export interface PodClaim {
  /** `namespace/name` of a ResourceClaim, or `namespace/pod#entry` for a claim a template will generate. */
  key: string;
  /** Named by the pod (may be shared with other pods), rather than generated for it alone. */
  shared: boolean;
  requests: readonly CompiledRequest[];
  signature: string;
  /** Already allocated: `node` when its devices are local to one node, undefined when reachable from any. */
  allocated?: { node?: string };
}

export interface ClaimObjects {
  claims: ReadonlyMap<string, ResourceClaim>;
  templates: ReadonlyMap<string, ResourceClaimTemplate>;
  classes: ReadonlyMap<string, DeviceClass>;
}

/** `namespace/name`, the key the maps above use. */
export function objectKey(object: { metadata?: { name?: string; namespace?: string } }): string {
  return `${object.metadata?.namespace ?? 'default'}/${object.metadata?.name ?? ''}`;
}

export function compileSelectors(
  where: string,
  specs: readonly { cel?: { expression: string } }[] | undefined,
  compiler: DeviceSelectorCompiler,
): DeviceSelector[] {
  return (specs ?? []).map((s, i) => {
    if (typeof s.cel?.expression !== 'string') throw new Error(`${where}.selectors[${i}]: only cel.expression selectors are supported`);
    const selector = compiler.compile(s.cel.expression);
    if (selector instanceof Error) throw new Error(`${where}.selectors[${i}]: ${selector.message}`);
    return selector;
  });
}

function alternative(
  where: string,
  name: string,
  exact: ExactDeviceRequest,
  objects: ClaimObjects,
  compiler: DeviceSelectorCompiler,
): RequestAlternative {
  const className = exact.deviceClassName;
  const deviceClass = objects.classes.get(className);
  if (!deviceClass) throw new Error(`${where}: DeviceClass ${JSON.stringify(className)} not found`);
  const mode = exact.allocationMode ?? 'ExactCount';
  if (mode !== 'ExactCount' && mode !== 'All') throw new Error(`${where}.allocationMode: ${JSON.stringify(mode)} is not ExactCount or All`);
  const count = exact.count ?? 1;
  if (mode === 'ExactCount' && (!Number.isInteger(count) || count < 1))
    throw new Error(`${where}.count: ${count} is not a positive integer`);
  const classExpressions = (deviceClass.spec?.selectors ?? []).map((s) => s.cel?.expression);
  const ownExpressions = (exact.selectors ?? []).map((s) => s.cel?.expression);
  return {
    name,
    selectors: [
      ...compileSelectors(`DeviceClass ${className}`, deviceClass.spec?.selectors, compiler),
      ...compileSelectors(where, exact.selectors, compiler),
    ],
    all: mode === 'All',
    count: mode === 'All' ? 0 : count,
    signature: JSON.stringify([classExpressions, ownExpressions, mode, count]),
  };
}

function compileRequest(where: string, request: DeviceRequest, objects: ClaimObjects, compiler: DeviceSelectorCompiler): CompiledRequest {
  const at = `${where}.devices.requests[${JSON.stringify(request.name)}]`;
  if (request.exactly)
    return { name: request.name, alternatives: [alternative(`${at}.exactly`, request.name, request.exactly, objects, compiler)] };
  const subrequests = request.firstAvailable ?? [];
  if (subrequests.length === 0) throw new Error(`${at}: neither exactly nor firstAvailable is set`);
  return {
    name: request.name,
    alternatives: subrequests.map((s) =>
      alternative(`${at}.firstAvailable[${JSON.stringify(s.name)}]`, `${request.name}/${s.name}`, s, objects, compiler),
    ),
  };
}

function compileClaim(
  where: string,
  spec: ResourceClaimSpec | undefined,
  objects: ClaimObjects,
  compiler: DeviceSelectorCompiler,
): CompiledRequest[] {
  return (spec?.devices?.requests ?? []).map((r) => compileRequest(where, r, objects, compiler));
}

function allocationOf(claim: ResourceClaim): PodClaim['allocated'] {
  const allocation = claim.status?.allocation;
  if (!allocation) return undefined;
  for (const term of allocation.nodeSelector?.nodeSelectorTerms ?? []) {
    const field = term.matchFields?.find((f) => f.key === 'metadata.name' && f.operator === 'In');
    if (field?.values?.[0] !== undefined) return { node: field.values[0] };
  }
  return {};
}

function signatureOf(requests: readonly CompiledRequest[]): string {
  return requests.map((r) => r.alternatives.map((a) => a.signature).join('|')).join(';');
}

/** The pod's claims, or undefined when it has none; throws an Error naming what cannot be resolved. */
export function resolvePodClaims(pod: PodLike, objects: ClaimObjects, compiler: DeviceSelectorCompiler): PodClaim[] | undefined {
  const entries = pod.spec?.resourceClaims ?? [];
  if (entries.length === 0) return undefined;
  const namespace = pod.metadata?.namespace ?? 'default';
  // A template's claim, once generated, is named in the pod's status: it may be allocated already.
  const statuses = (pod as { status?: V1PodStatus }).status?.resourceClaimStatuses ?? [];
  const generated = new Map(statuses.map((s) => [s.name, s.resourceClaimName]));
  return entries.map((entry) => {
    const named = entry.resourceClaimName ?? generated.get(entry.name);
    const existing = named === undefined ? undefined : objects.claims.get(`${namespace}/${named}`);
    if (existing) {
      const requests = compileClaim(`ResourceClaim ${namespace}/${named}`, existing.spec, objects, compiler);
      const allocated = allocationOf(existing);
      return {
        key: `${namespace}/${named}`,
        shared: entry.resourceClaimName !== undefined,
        requests,
        signature: signatureOf(requests),
        ...(allocated ? { allocated } : {}),
      };
    }
    if (entry.resourceClaimName !== undefined) throw new Error(`ResourceClaim ${namespace}/${entry.resourceClaimName} not found`);
    const templateName = entry.resourceClaimTemplateName;
    if (templateName === undefined)
      throw new Error(`spec.resourceClaims[${JSON.stringify(entry.name)}] names neither a claim nor a template`);
    const template = objects.templates.get(`${namespace}/${templateName}`);
    if (!template) throw new Error(`ResourceClaimTemplate ${namespace}/${templateName} not found`);
    const requests = compileClaim(`ResourceClaimTemplate ${namespace}/${templateName}`, template.spec?.spec, objects, compiler);
    return { key: `${namespace}/${pod.metadata?.name ?? ''}#${entry.name}`, shared: false, requests, signature: signatureOf(requests) };
  });
}
