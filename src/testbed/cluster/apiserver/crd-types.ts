/** CustomResourceDefinition → served ResourceTypes, and the checks kube-apiserver makes on a CRD's names. */
import { invalid } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type PrinterColumnSpec, type ResourceType, type ScaleSpec } from './resource-type.js';

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { kind?: string; listKind?: string; plural?: string; singular?: string; shortNames?: string[]; categories?: string[] };
  versions?: Array<{
    name?: string;
    served?: boolean;
    storage?: boolean;
    subresources?: { status?: object; scale?: ScaleSpec };
    additionalPrinterColumns?: PrinterColumnSpec[];
    schema?: { openAPIV3Schema?: Record<string, unknown> };
  }>;
}

export function crdSpec(crd: KubeObject): CrdSpec {
  return (crd.spec ?? {}) as CrdSpec;
}

export function validateCrd(type: ResourceType, crd: KubeObject): void {
  const spec = crdSpec(crd);
  const name = crd.metadata.name ?? '';
  const causes: Array<{ field: string; message: string; reason?: string }> = [];
  if (!spec.group) causes.push({ field: 'spec.group', message: 'Required value', reason: 'FieldValueRequired' });
  if (!spec.names?.plural) causes.push({ field: 'spec.names.plural', message: 'Required value', reason: 'FieldValueRequired' });
  if (!spec.names?.kind) causes.push({ field: 'spec.names.kind', message: 'Required value', reason: 'FieldValueRequired' });
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    causes.push({
      field: 'spec.scope',
      message: `Unsupported value: "${spec.scope ?? ''}": supported values: "Cluster", "Namespaced"`,
      reason: 'FieldValueNotSupported',
    });
  }
  if (spec.group && spec.names?.plural && name !== `${spec.names.plural}.${spec.group}`) {
    causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group` });
  }
  const versions = spec.versions ?? [];
  if (versions.length === 0)
    causes.push({ field: 'spec.versions', message: 'Invalid value: null: must have exactly one version marked as storage version' });
  else if (versions.filter((v) => v.storage).length !== 1) {
    causes.push({
      field: 'spec.versions',
      message: `Invalid value: ${JSON.stringify(versions.map((v) => v.name))}: must have exactly one version marked as storage version`,
    });
  }
  if (causes.length > 0) throw invalid(type, name, causes);
}

export function typesFromCrd(crd: KubeObject): ResourceType[] {
  const spec = crdSpec(crd);
  const names = spec.names ?? {};
  const kind = names.kind ?? '';
  return (spec.versions ?? [])
    .filter((v) => v.served && v.name)
    .map((v) => ({
      group: spec.group ?? '',
      version: v.name ?? '',
      kind,
      listKind: names.listKind ?? `${kind}List`,
      plural: names.plural ?? '',
      singular: names.singular ?? kind.toLowerCase(),
      namespaced: spec.scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      subresources: [...(v.subresources?.status ? ['status'] : []), ...(v.subresources?.scale ? ['scale'] : [])],
      ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
      strategicMerge: false,
      crdName: crd.metadata.name ?? '',
      ...(v.additionalPrinterColumns?.length ? { printerColumns: v.additionalPrinterColumns } : {}),
    }));
}

export function crdStatus(crd: KubeObject, nowIso: string): Record<string, unknown> {
  const spec = crdSpec(crd);
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastTransitionTime: nowIso,
    reason,
    message,
  });
  return {
    acceptedNames: spec.names ?? {},
    storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
    conditions: [
      condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
  };
}
