/**
 * The catalog the emulator serves by default: the bundled one from `src/catalog/index.ts`, loaded lazily so
 * the emulator can start with an explicit catalog while the bundled one is unavailable.
 */
import type { CatalogFile } from '../../../catalog/types.js';

export class MissingOutscaleCatalogError extends Error {
  constructor(cause: unknown) {
    super(`loading the bundled outscale catalog: ${cause instanceof Error ? cause.message : String(cause)}; pass options.catalog instead`);
    this.name = 'MissingOutscaleCatalogError';
  }
}

export async function loadBundledOutscaleCatalog(): Promise<CatalogFile> {
  // A variable specifier keeps the type-checker from requiring the module at build time.
  const specifier = '../../../catalog/index.js';
  try {
    const mod = (await import(specifier)) as { loadCatalog?: (cloud: 'outscale') => CatalogFile | Promise<CatalogFile> };
    if (typeof mod.loadCatalog !== 'function') throw new Error('src/catalog/index.ts exports no loadCatalog');
    return await mod.loadCatalog('outscale');
  } catch (err) {
    throw new MissingOutscaleCatalogError(err);
  }
}
