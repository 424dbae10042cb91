/** A Scaleway server as the core sees a launched NodeClaim (pure). */
import {
  CapacityTypeOnDemand,
  LabelCapacityType,
  LabelInstanceType,
  LabelTopologyRegion,
  LabelTopologyZone,
} from '../../apis/v1/labels.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { CloudNodeClaim } from '../types.js';
import type { ScalewayServer } from './api.js';
import { formatProviderID } from './provider-id.js';
import { TagNodeClaim, TagNodePool, tagValue } from './tags.js';

/** `stopping` is the only way our servers stop: they are being terminated (we never power them off). */
function isTerminating(server: ScalewayServer): boolean {
  return server.state === 'stopping';
}

export function toCloudNodeClaim(server: ScalewayServer, instanceType: InstanceType | undefined, region: string): CloudNodeClaim {
  const nodeClaimName = tagValue(server.tags, TagNodeClaim);
  const nodePoolName = tagValue(server.tags, TagNodePool);
  return {
    providerID: formatProviderID(server),
    ...(nodeClaimName ? { nodeClaimName } : {}),
    ...(nodePoolName ? { nodePoolName } : {}),
    instanceType: server.commercialType,
    zone: server.zone,
    capacityType: CapacityTypeOnDemand,
    ...(server.imageId ? { imageID: server.imageId } : {}),
    capacity: instanceType?.capacity ?? {},
    allocatable: instanceType?.allocatable ?? {},
    labels: {
      ...(instanceType?.labels ?? {}),
      [LabelInstanceType]: server.commercialType,
      [LabelTopologyZone]: server.zone,
      [LabelTopologyRegion]: region,
      [LabelCapacityType]: CapacityTypeOnDemand,
    },
    createdAt: server.createdAt,
    ...(isTerminating(server) ? { terminating: true } : {}),
  };
}
