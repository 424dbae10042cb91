/**
 * The bundled instance-type catalogs, one JSON file per cloud (imported as JSON modules so the build copies
 * them to dist/). Each file is validated once, on first use; a malformed file is a CatalogValidationError
 * naming the file, the flavor and the field.
 */
import { CloudNames, type CloudName } from '../apis/v1/labels.js';
import ovhcloudData from './data/ovhcloud.json' with { type: 'json' };
import scalewayData from './data/scaleway.json' with { type: 'json' };
import outscaleData from './data/outscale.json' with { type: 'json' };
import type { CatalogFile } from './types.js';
import { validateCatalog } from './validate.js';

export type { CatalogFile, CatalogFlavor, CatalogGpu, CatalogPrice, CatalogRegion, CatalogSource } from './types.js';
export { CatalogValidationError, validateCatalog } from './validate.js';

const rawCatalogs: Record<CloudName, { file: string; data: unknown }> = {
  ovhcloud: { file: 'src/catalog/data/ovhcloud.json', data: ovhcloudData },
  scaleway: { file: 'src/catalog/data/scaleway.json', data: scalewayData },
  outscale: { file: 'src/catalog/data/outscale.json', data: outscaleData },
};

const validated = new Map<CloudName, CatalogFile>();

export class UnknownCloudError extends Error {
  constructor(readonly cloud: string) {
    super(`loading catalog: unknown cloud "${cloud}"; accepted: ${CloudNames.join(', ')}`);
    this.name = 'UnknownCloudError';
  }
}

/** The bundled catalog of a cloud, validated on first use. Callers must not mutate it. */
export function loadCatalog(cloud: CloudName): CatalogFile {
  const cached = validated.get(cloud);
  if (cached) return cached;
  const raw = rawCatalogs[cloud];
  if (!raw) throw new UnknownCloudError(cloud);
  const catalog = validateCatalog(raw.data, raw.file, cloud);
  validated.set(cloud, catalog);
  return catalog;
}

export function isCloudName(value: string): value is CloudName {
  return (CloudNames as readonly string[]).includes(value);
}
