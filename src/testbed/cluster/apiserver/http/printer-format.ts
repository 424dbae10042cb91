/** The cell formats of kube-apiserver's printers (k8s.io/apimachinery duration.HumanDuration and friends). */
import { type KubeObject } from '../kube-object.js';

export { formatSelector } from '../label-selector.js';

export type Obj = Record<string, unknown>;

export interface Column {
  name: string;
  type: string;
  format?: string;
  description: string;
  priority?: number;
}

/** A built-in kind's columns and the cells of one object (all priorities: kubectl drops the wide ones). */
export interface Printer {
  columns: Column[];
  cells(object: KubeObject, nowMs: number): unknown[];
}

export const nameColumn: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources.',
};
export const ageColumn: Column = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
};

/** duration.HumanDuration: `45s`, `3m12s`, `2h5m`, `3d4h`, `1y20d`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** translateTimestampSince: the age of a timestamp, `<unknown>` when there is none. */
export function since(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? '<unknown>' : humanDuration(nowMs - at);
}

export function age(object: KubeObject, nowMs: number): string {
  return since(object.metadata.creationTimestamp, nowMs);
}

export function field(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Obj)[key] : undefined), value);
}

export function text(value: unknown, none = '<none>'): string {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : none;
}

export function int(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

export function count(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
}

/** labels.FormatLabels: `k=v` sorted by key, comma-separated; `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries((labels ?? {}) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}

/** The template's containers and images, as the workload printers list them. */
export function containersAndImages(podSpec: unknown): [string, string] {
  const containers = (field(podSpec, 'containers') as Array<{ name?: string; image?: string }> | undefined) ?? [];
  return [containers.map((c) => c.name ?? '').join(','), containers.map((c) => c.image ?? '').join(',')];
}
