/** The catalog the emulator serves unless the caller passes one: the bundled scaleway catalog. */
import { loadCatalog } from '../../../catalog/index.js';
import type { CatalogFile } from '../../../catalog/types.js';

export function loadBundledScalewayCatalog(): Promise<CatalogFile> {
  return Promise.resolve(loadCatalog('scaleway'));
}
