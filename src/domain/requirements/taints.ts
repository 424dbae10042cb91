/**
 * Taints and tolerations as Kubernetes matches them (k8s.io/api core/v1 Toleration.ToleratesTaint with
 * the comparison operators enabled, as Karpenter calls it) and Karpenter's known ephemeral taints.
 */
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { ResourceNvidiaGPU, TaintUnregistered } from '../../apis/v1/labels.js';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export const TaintEffects: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export type Taint = Pick<V1Taint, 'key' | 'value' | 'effect'>;
export type Toleration = Pick<V1Toleration, 'key' | 'operator' | 'value' | 'effect'>;

/** Taints expected on a node while it initialises; ignored for uninitialised managed nodes. */
export const KnownEphemeralTaints: readonly Taint[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
  { key: TaintUnregistered.key, effect: TaintUnregistered.effect },
];

/** The taint of NodePools that launch only GPU flavors, so only pods that tolerate it (GPU pods) land there. */
export const GpuNodeTaint: Taint = { key: ResourceNvidiaGPU, value: 'true', effect: 'NoSchedule' };
/** The toleration GPU pods carry for it, as on GKE's and EKS's GPU node groups. */
export const GpuNodeToleration: Toleration = { key: ResourceNvidiaGPU, operator: 'Exists', effect: 'NoSchedule' };

/** Taint families whose key carries a controller-chosen suffix (Node Readiness Controller). */
export const KnownEphemeralTaintKeyPrefixes: readonly string[] = ['readiness.k8s.io/'];

/** Same key and effect (Taint.MatchTaint; the value is not compared). */
export function taintsMatch(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function isKnownEphemeralTaint(taint: Taint): boolean {
  return KnownEphemeralTaints.some((t) => taintsMatch(t, taint)) || KnownEphemeralTaintKeyPrefixes.some((p) => taint.key.startsWith(p));
}

/**
 * Toleration.ToleratesTaint: an empty effect matches every effect, an empty key every key; Equal (or no
 * operator) compares values (absent counts as ""), Exists matches any value, Gt/Lt compare integers
 * (taint value > / < toleration value); any other operator matches nothing.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    case 'Gt':
    case 'Lt':
      return compareIntegers(toleration.operator as 'Gt' | 'Lt', toleration.value ?? '', taint.value ?? '');
    default:
      return false;
  }
}

export function toleratesAny(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  for (const t of tolerations ?? []) if (toleratesTaint(t, taint)) return true;
  return false;
}

/**
 * The first taint (among those with one of `effects`, all when omitted) no toleration tolerates, else
 * undefined (v1helper.FindMatchingUntoleratedTaint). Karpenter checks every effect, PreferNoSchedule included.
 */
export function firstUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  effects?: readonly string[],
): Taint | undefined {
  for (const taint of taints ?? []) {
    if (effects && !effects.includes(taint.effect)) continue;
    if (!toleratesAny(tolerations, taint)) return taint;
  }
  return undefined;
}

/** Taints of `base` plus those of `extra` whose key and effect are new (Taints.Merge). */
export function mergeTaints(base: readonly Taint[], extra: readonly Taint[]): Taint[] {
  const out = [...base];
  for (const t of extra) if (!out.some((existing) => taintsMatch(existing, t))) out.push(t);
  return out;
}

/** key=value:effect, or key:effect without a value. */
export function formatTaint(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}

// Decimal integers without leading zeros or '+', within int64 (content.IsDecimalInteger + ParseInt).
const decimalInteger = /^-?(0|[1-9][0-9]*)$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

function parseInt64(text: string): bigint | undefined {
  if (!decimalInteger.test(text)) return undefined;
  const n = BigInt(text);
  return n < int64Min || n > int64Max ? undefined : n;
}

function compareIntegers(operator: 'Gt' | 'Lt', tolerationValue: string, taintValue: string): boolean {
  const tol = parseInt64(tolerationValue);
  const taint = parseInt64(taintValue);
  if (tol === undefined || taint === undefined) return false;
  return operator === 'Gt' ? taint > tol : taint < tol;
}
