/** The OAPI actions the emulator answers, and which of them the real API accepts unsigned. */
import {
  readPublicCatalog,
  readImages,
  readRegions,
  readSecurityGroups,
  readSubnets,
  readSubregions,
  readVmTypes,
} from './catalog-handlers.js';
import type { ActionHandler } from './context.js';
import { createVms } from './create-vms.js';
import {
  createFlexibleGpu,
  deleteFlexibleGpu,
  linkFlexibleGpu,
  readFlexibleGpuCatalog,
  readFlexibleGpus,
  unlinkFlexibleGpu,
} from './gpu-handlers.js';
import { createTags, deleteTags, readTags } from './tag-handlers.js';
import { deleteVms, readVms, startVms, stopVms } from './vm-handlers.js';

export const ACTIONS: Readonly<Record<string, ActionHandler>> = {
  CreateVms: createVms,
  ReadVms: readVms,
  DeleteVms: deleteVms,
  StartVms: startVms,
  StopVms: stopVms,
  CreateTags: createTags,
  DeleteTags: deleteTags,
  ReadTags: readTags,
  ReadVmTypes: readVmTypes,
  ReadRegions: readRegions,
  ReadSubregions: readSubregions,
  ReadPublicCatalog: readPublicCatalog,
  ReadImages: readImages,
  ReadSubnets: readSubnets,
  ReadSecurityGroups: readSecurityGroups,
  CreateFlexibleGpu: createFlexibleGpu,
  LinkFlexibleGpu: linkFlexibleGpu,
  UnlinkFlexibleGpu: unlinkFlexibleGpu,
  DeleteFlexibleGpu: deleteFlexibleGpu,
  ReadFlexibleGpus: readFlexibleGpus,
  ReadFlexibleGpuCatalog: readFlexibleGpuCatalog,
};

/** Calls the real API serves without authentication. */
export const PUBLIC_ACTIONS: ReadonlySet<string> = new Set(['ReadPublicCatalog', 'ReadFlexibleGpuCatalog']);
