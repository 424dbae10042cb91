/**
 * The port the Outscale CloudProvider talks through: the calls of `OutscaleClient` it uses. The signed HTTP
 * client implements it; unit tests may hand in a table-driven double.
 */
import type { OutscaleClient } from './client.js';

export type OutscaleApi = Pick<
  OutscaleClient,
  | 'region'
  | 'createVms'
  | 'readAllVms'
  | 'deleteVms'
  | 'startVms'
  | 'createTags'
  | 'deleteTags'
  | 'readAllTags'
  | 'readPublicCatalog'
  | 'readRegions'
  | 'readImages'
  | 'readSubnets'
  | 'readSecurityGroups'
  | 'readSubregions'
  | 'createFlexibleGpu'
  | 'linkFlexibleGpu'
  | 'deleteFlexibleGpu'
  | 'readFlexibleGpus'
>;
