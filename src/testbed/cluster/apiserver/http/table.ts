/** meta.k8s.io/v1 Table output for `kubectl get` (Name and Age, plus a few kind-specific columns). */
import { type KubeObject } from '../kube-object.js';

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
    const ready = (o: KubeObject) => ((status(o).conditions as Array<{ type: string; status: string }> | undefined) ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
    return [{ name: 'Status', cell: (o) => (ready(o) ? 'Ready' : 'NotReady') }];
  }
  return [];
}

export function toTable(kind: string, items: readonly KubeObject[], resourceVersion: string, nowMs: number): object {
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
