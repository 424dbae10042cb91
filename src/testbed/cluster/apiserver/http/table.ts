/**
 * meta.k8s.io/v1 Table output for `kubectl get`, as kube-apiserver serves it: for a custom resource, Name then
 * the CRD version's additionalPrinterColumns (Age when it declares none); for a built-in kind, the columns of
 * kube-apiserver's printer for it, or Name and Created At for kinds that have none (RBAC roles, CRDs). All
 * priorities are sent; kubectl shows priority 1 with `-o wide`. Each row carries the object as `includeObject`
 * asks: its metadata by default, the whole object for `--sort-by`, nothing for `None`.
 */
import { badRequest } from '../errors.js';
import { type KubeObject } from '../kube-object.js';
import { type PrinterColumnSpec, type ResourceType, storageKey } from '../resource-type.js';
import { corePrinters } from './core-printers.js';
import { evaluateJsonPath } from './printer-jsonpath.js';
import { ageColumn, type Column, humanDuration, nameColumn, type Printer } from './printer-format.js';
import { resourcePrinters } from './resource-printers.js';
import { workloadPrinters } from './workload-printers.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const builtinPrinters: Record<string, Printer> = { ...workloadPrinters, ...corePrinters, ...resourcePrinters };

/** How the request wants its answer: undefined for plain JSON, else the Table's includeObject. */
export function tableRequest(accept: string | undefined, query: URLSearchParams): IncludeObject | undefined {
  if (!((accept ?? '').split(',')[0]?.includes('as=Table') ?? false)) return undefined;
  const include = query.get('includeObject') ?? 'Metadata';
  if (include !== 'None' && include !== 'Metadata' && include !== 'Object')
    throw badRequest(`invalid includeObject: "${include}"; accepted: None, Metadata, Object`);
  return include;
}

/** A printer column's cell as the CRD table convertor makes it: the first value found, typed by the column. */
function printerCell(column: PrinterColumnSpec, object: KubeObject, nowMs: number): unknown {
  const value = evaluateJsonPath(object, column.jsonPath)[0];
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = Date.parse(value);
      return Number.isNaN(at) ? '<invalid>' : humanDuration(nowMs - at);
    }
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

const crdAge: PrinterColumnSpec = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: ageColumn.description,
};

function customResourcePrinter(specs: readonly PrinterColumnSpec[]): Printer {
  const columns = specs.length > 0 ? specs : [crdAge];
  return {
    columns: [
      nameColumn,
      ...columns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description ?? c.name,
        priority: c.priority ?? 0,
      })),
    ],
    cells: (o, nowMs) => [o.metadata.name, ...columns.map((c) => printerCell(c, o, nowMs))],
  };
}

/** rest.NewDefaultTableConvertor: what kube-apiserver prints for kinds without a printer of their own. */
const defaultPrinter: Printer = {
  columns: [nameColumn, { name: 'Created At', type: 'date', description: ageColumn.description }],
  cells: (o) => [o.metadata.name, o.metadata.creationTimestamp ?? ''],
};

function printerFor(type: ResourceType): Printer {
  if (type.crdName !== undefined) return customResourcePrinter(type.printerColumns ?? []);
  return builtinPrinters[storageKey(type)] ?? defaultPrinter;
}

function rowObject(object: KubeObject, include: IncludeObject): object | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

function columnDefinitions(columns: readonly Column[]): object[] {
  return columns.map((c) => ({
    name: c.name,
    type: c.type,
    format: c.format ?? '',
    description: c.description,
    priority: c.priority ?? 0,
  }));
}

export function toTable(
  type: ResourceType,
  items: readonly KubeObject[],
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number },
  nowMs: number,
  include: IncludeObject,
): object {
  const printer = printerFor(type);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: columnDefinitions(printer.columns),
    rows: items.map((o) => {
      const object = rowObject(o, include);
      return { cells: printer.cells(o, nowMs), ...(object ? { object } : {}) };
    }),
  };
}
