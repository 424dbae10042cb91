/** The catalog the emulator serves unless the caller passes one: the bundled ovhcloud catalog. */
import { loadCatalog } from '../../../catalog/index.js';
import type { CatalogFile } from '../../../catalog/types.js';

export function loadBundledOvhCatalog(): Promise<CatalogFile> {
  return Promise.resolve(loadCatalog('ovhcloud'));
}
