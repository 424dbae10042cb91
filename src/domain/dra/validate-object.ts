/**
 * What kube-apiserver refuses in a DeviceClass, ResourceClaim or ResourceClaimTemplate before any scheduling: a
 * request without a name, with neither or both of `exactly` and `firstAvailable`, without a device class, with an
 * unknown allocation mode or a count below 1, or a CEL selector that does not compile. Pure.
 */
import { DeviceSelectorCompiler } from './cel.js';
import { compileSelectors } from './claims.js';
import type { DeviceRequest, DeviceSelectorSpec, ExactDeviceRequest, ResourceClaimSpec } from './types.js';

export const DraValidatedKinds = ['DeviceClass', 'ResourceClaim', 'ResourceClaimTemplate'] as const;

function exactProblems(where: string, exact: ExactDeviceRequest, compiler: DeviceSelectorCompiler): string[] {
  const problems: string[] = [];
  if (typeof exact.deviceClassName !== 'string' || exact.deviceClassName === '') problems.push(`${where}.deviceClassName: Required value`);
  const mode = exact.allocationMode ?? 'ExactCount';
  if (mode !== 'ExactCount' && mode !== 'All') problems.push(`${where}.allocationMode: ${JSON.stringify(mode)}; accepted: ExactCount, All`);
  if (mode === 'ExactCount' && exact.count !== undefined && (!Number.isInteger(exact.count) || exact.count < 1))
    problems.push(`${where}.count: ${JSON.stringify(exact.count)}; accepted: an integer of at least 1`);
  problems.push(...selectorProblems(where, exact.selectors, compiler));
  return problems;
}

function selectorProblems(where: string, selectors: readonly DeviceSelectorSpec[] | undefined, compiler: DeviceSelectorCompiler): string[] {
  try {
    compileSelectors(where, selectors, compiler);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

function requestProblems(where: string, request: DeviceRequest, compiler: DeviceSelectorCompiler): string[] {
  const at = `${where}[${JSON.stringify(request.name ?? '')}]`;
  if (typeof request.name !== 'string' || request.name === '') return [`${at}.name: Required value`];
  if ((request.exactly === undefined) === (request.firstAvailable === undefined))
    return [`${at}: exactly one of exactly and firstAvailable must be set`];
  if (request.exactly) return exactProblems(`${at}.exactly`, request.exactly, compiler);
  return (request.firstAvailable ?? []).flatMap((s) => exactProblems(`${at}.firstAvailable[${JSON.stringify(s.name)}]`, s, compiler));
}

function claimSpecProblems(where: string, spec: ResourceClaimSpec | undefined, compiler: DeviceSelectorCompiler): string[] {
  return (spec?.devices?.requests ?? []).flatMap((r) => requestProblems(`${where}.devices.requests`, r, compiler));
}

/** Every reason the API server would refuse the object (empty when none); undefined for other kinds. */
export function draObjectProblems(
  object: { kind?: unknown; spec?: unknown },
  compiler = new DeviceSelectorCompiler(),
): string[] | undefined {
  if (object.kind === 'DeviceClass')
    return selectorProblems('spec', (object.spec as { selectors?: DeviceSelectorSpec[] } | undefined)?.selectors, compiler);
  if (object.kind === 'ResourceClaim') return claimSpecProblems('spec', object.spec as ResourceClaimSpec | undefined, compiler);
  if (object.kind === 'ResourceClaimTemplate')
    return claimSpecProblems('spec.spec', (object.spec as { spec?: ResourceClaimSpec } | undefined)?.spec, compiler);
  return undefined;
}
