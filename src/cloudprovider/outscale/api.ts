/**
 * The port the Outscale CloudProvider talks through: the calls of `OutscaleClient` it uses. The signed HTTP
 * client implements it; unit tests may hand in a table-driven double.
 */
import type { ApiCallKinds } from '../types.js';
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

export const OutscaleApiCalls: ApiCallKinds<OutscaleApi> = {
  region: 'value',
  createVms: 'write',
  readAllVms: 'read',
  deleteVms: 'write',
  startVms: 'write',
  createTags: 'write',
  deleteTags: 'write',
  readAllTags: 'read',
  readPublicCatalog: 'read',
  readRegions: 'read',
  readImages: 'read',
  readSubnets: 'read',
  readSecurityGroups: 'read',
  readSubregions: 'read',
  createFlexibleGpu: 'write',
  linkFlexibleGpu: 'write',
  deleteFlexibleGpu: 'write',
  readFlexibleGpus: 'read',
};
