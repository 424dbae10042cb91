/** The catalog the emulator serves unless the caller passes one: the bundled outscale catalog. */
import { loadCatalog } from '../../../catalog/index.js';
import type { CatalogFile } from '../../../catalog/types.js';

export function loadBundledOutscaleCatalog(): Promise<CatalogFile> {
  return Promise.resolve(loadCatalog('outscale'));
}
