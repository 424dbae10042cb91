/**
 * Reads the kubelet flags a NodeClaim's launch put in user data: `--node-labels=a=b,c=d` and
 * `--register-with-taints=k=v:NoSchedule,k2:NoExecute`, whether in a shell line or a YAML/JSON string.
 */
import { type Taint, TaintEffects, type TaintEffect } from '../../../domain/requirements/index.js';

function flagValue(userData: string, flag: string): string | undefined {
  const match = new RegExp(`--${flag}[= ]["']?([^\\s"']+)`).exec(userData);
  return match?.[1];
}

export function nodeLabelsFromUserData(userData: string | undefined): Record<string, string> {
  const raw = userData ? flagValue(userData, 'node-labels') : undefined;
  const labels: Record<string, string> = {};
  for (const pair of raw?.split(',') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0) labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return labels;
}

export function taintsFromUserData(userData: string | undefined): Taint[] {
  const raw = userData ? flagValue(userData, 'register-with-taints') : undefined;
  const taints: Taint[] = [];
  for (const item of raw?.split(',') ?? []) {
    const colon = item.lastIndexOf(':');
    if (colon <= 0) continue;
    const effect = item.slice(colon + 1) as TaintEffect;
    if (!TaintEffects.includes(effect)) continue;
    const [key, value] = item.slice(0, colon).split('=', 2) as [string, string | undefined];
    taints.push(value === undefined ? { key, effect } : { key, value, effect });
  }
  return taints;
}
