/**
 * Which catalog answered an offline `validate` or `plan`: always the bundled copy of a cloud's catalog, with
 * the date its facts were read. The running service reads the clouds' live catalogs; offline answers age with
 * the copy, so every output says which copy and how old. Table output puts it on stderr, as kubectl prints
 * its warnings, so stdout stays the verdicts or the plan; json and yaml carry it as data.
 */
import { CloudNames, type CloudName } from '../../apis/v1/labels.js';
import { loadCatalog } from '../../catalog/index.js';
import { NodeClassGroups } from '../../domain/admission/pool-scope.js';
import type { KubeObject } from '../../domain/admission/index.js';

export interface CatalogProvenance {
  cloud: CloudName;
  source: 'bundled';
  /** ISO date, kept a string in yaml (quoted, so YAML 1.1 readers do not make it a timestamp). */
  retrieved: string;
}

const cloudOfKind: Readonly<Record<string, CloudName>> = Object.fromEntries(Object.values(NodeClassGroups).map((g) => [g.kind, g.cloud]));

type Spec = { nodeClassRef?: { group?: unknown }; template?: { spec?: { nodeClassRef?: { group?: unknown } } } };

/** The cloud whose catalog admission or planning reads for this object: a NodeClass's, or the NodeClass a NodePool or NodeClaim names. */
function cloudOf(object: KubeObject): CloudName | undefined {
  const byKind = cloudOfKind[String(object.kind)];
  if (byKind) return byKind;
  const spec = object.spec as Spec | undefined;
  const group = spec?.template?.spec?.nodeClassRef?.group ?? spec?.nodeClassRef?.group;
  return typeof group === 'string' ? NodeClassGroups[group]?.cloud : undefined;
}

export function bundledProvenance(clouds: Iterable<CloudName>): CatalogProvenance[] {
  const wanted = new Set(clouds);
  return CloudNames.filter((c) => wanted.has(c)).map((cloud) => ({
    cloud,
    source: 'bundled' as const,
    retrieved: loadCatalog(cloud).retrieved,
  }));
}

/** The catalogs the objects' clouds use, in cloud order. */
export function catalogsOfObjects(objects: readonly KubeObject[]): CatalogProvenance[] {
  return bundledProvenance(objects.map(cloudOf).filter((c): c is CloudName => c !== undefined));
}

/** The catalogs that answered for one object: its own cloud's, or (a Pod) those of every cloud in the input. */
export function catalogsOfObject(object: KubeObject, all: readonly CatalogProvenance[]): CatalogProvenance[] {
  const cloud = cloudOf(object);
  return cloud ? all.filter((p) => p.cloud === cloud) : [...all];
}

/** The stderr lines of table output. */
export function provenanceLines(catalogs: readonly CatalogProvenance[]): string {
  return catalogs
    .map(
      (p) => `catalog: ${p.cloud}: the bundled catalog of ${p.retrieved} (offline; the running service reads the clouds' live catalogs)\n`,
    )
    .join('');
}
