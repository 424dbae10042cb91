/**
 * meta.k8s.io/v1 Table output for `kubectl get`: for a custom resource, Name then the CRD's
 * additionalPrinterColumns, as kube-apiserver serves them; otherwise Name and Age plus a few kind-specific
 * columns.
 */
import { type KubeObject } from '../kube-object.js';
import { type PrinterColumnSpec } from '../resource-type.js';
import { evaluateJsonPath } from './printer-jsonpath.js';

export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',')[0]?.includes('as=Table') ?? false;
}

function age(created: string | undefined, nowMs: number): string {
  if (!created) return '<unknown>';
  const seconds = Math.max(0, Math.floor((nowMs - Date.parse(created)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

function extraColumns(kind: string): Array<{ name: string; cell: (o: KubeObject) => string }> {
  const status = (o: KubeObject) => (o.status ?? {}) as Record<string, unknown>;
  if (kind === 'Pod') {
    return [
      { name: 'Status', cell: (o) => (o.metadata.deletionTimestamp ? 'Terminating' : String(status(o).phase ?? '')) },
      { name: 'Node', cell: (o) => String((o.spec as { nodeName?: string } | undefined)?.nodeName ?? '<none>') },
    ];
  }
  if (kind === 'Node') {
    const ready = (o: KubeObject) =>
      ((status(o).conditions as Array<{ type: string; status: string }> | undefined) ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      );
    return [{ name: 'Status', cell: (o) => (ready(o) ? 'Ready' : 'NotReady') }];
  }
  return [];
}

/** A column's cell as kube-apiserver formats it: one number or boolean as is, dates as an age, else values joined by commas. */
function printerCell(column: PrinterColumnSpec, object: KubeObject, nowMs: number): unknown {
  const values = evaluateJsonPath(object, column.jsonPath);
  if (values.length === 0) return '<none>';
  if (column.type === 'date') return age(String(values[0]), nowMs);
  if (values.length === 1 && (typeof values[0] === 'number' || typeof values[0] === 'boolean')) return values[0];
  return values.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
}

function printerColumnsTable(
  columns: readonly PrinterColumnSpec[],
  items: readonly KubeObject[],
  resourceVersion: string,
  nowMs: number,
): object {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      // Dates are sent as ages already, so they are strings to the client.
      ...columns.map((c) => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        format: c.format ?? '',
        description: c.description ?? c.name,
        priority: c.priority ?? 0,
      })),
    ],
    rows: items.map((o) => ({
      cells: [o.metadata.name ?? '', ...columns.map((c) => printerCell(c, o, nowMs))],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}

export function toTable(
  kind: string,
  items: readonly KubeObject[],
  resourceVersion: string,
  nowMs: number,
  printerColumns?: readonly PrinterColumnSpec[],
): object {
  if (printerColumns && printerColumns.length > 0) return printerColumnsTable(printerColumns, items, resourceVersion, nowMs);
  const extra = extraColumns(kind);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      ...extra.map((c) => ({ name: c.name, type: 'string', format: '', description: c.name, priority: 0 })),
      { name: 'Age', type: 'string', format: '', description: 'CreationTimestamp', priority: 0 },
    ],
    rows: items.map((o) => ({
      cells: [o.metadata.name ?? '', ...extra.map((c) => c.cell(o)), age(o.metadata.creationTimestamp, nowMs)],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
