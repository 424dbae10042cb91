/**
 * The narrow port to Scaleway's Instance and Block APIs: only the calls the provider makes, in plain data
 * (aws/karpenter-provider-aws `pkg/aws/sdk.go`). `client.ts` implements it with `@scaleway/sdk-*`; tests may
 * implement it in memory. Every method throws the core error classes of `../errors.ts` (mapped by
 * `./errors.ts`), never SDK errors.
 */

import type { ApiCallKinds } from '../types.js';

/** `products/servers/availability` values: `shortage` means no stock, `scarce` little. */
export type ScalewayAvailability = 'available' | 'scarce' | 'shortage';

/** One entry of `products/servers` in a zone. */
export interface ScalewayServerType {
  commercialType: string;
  /** EUR per hour, when the API gives one. */
  hourlyPrice?: number;
  ncpus: number;
  ramBytes: number;
  gpuCount: number;
  /** The API's GPU model name (`L4`, `H100-PCIe`, `RTX 3070`), when the type has GPUs. */
  gpuName?: string;
  gpuMemoryBytes?: number;
  arch: 'amd64' | 'arm64';
  /** Total local volume size the type allows (0: boots from Block Storage only). */
  maxLocalVolumeBytes: number;
  endOfService: boolean;
}

export type ScalewayServerState = 'running' | 'stopped' | 'stopped in place' | 'starting' | 'stopping' | 'locked';

export interface ScalewayVolumeRef {
  id: string;
  volumeType: string;
  boot: boolean;
}

/** A server as the provider needs to see it. */
export interface ScalewayServer {
  id: string;
  name: string;
  zone: string;
  commercialType: string;
  state: ScalewayServerState;
  stateDetail: string;
  tags: string[];
  imageId?: string;
  securityGroupId?: string;
  placementGroupId?: string;
  privateNetworkIds: string[];
  volumes: ScalewayVolumeRef[];
  /** Epoch ms. */
  createdAt: number;
}

export interface CreateServerRequest {
  zone: string;
  name: string;
  commercialType: string;
  /** Image UUID or marketplace label. */
  image: string;
  projectId: string;
  tags: string[];
  rootVolume: { type: 'l_ssd' | 'sbs_volume'; sizeBytes: number; name: string };
  securityGroupId?: string;
  placementGroupId?: string;
}

export interface ScalewayBlockVolume {
  id: string;
  name: string;
  zone: string;
  /** `available` (detached), `in_use`… */
  status: string;
}

export interface ScalewayApi {
  /** Every commercial type of the zone (all pages). */
  listServerTypes(zone: string): Promise<ScalewayServerType[]>;
  /** Availability by commercial type in the zone (all pages). */
  getServerTypesAvailability(zone: string): Promise<Record<string, ScalewayAvailability>>;
  /** One page of servers carrying every tag; `totalCount` from `X-Total-Count`. */
  listServersPage(
    zone: string,
    tags: readonly string[],
    page: number,
    perPage: number,
  ): Promise<{ servers: ScalewayServer[]; totalCount: number }>;
  /** Errors: NodeClaimNotFoundError when the server does not exist. */
  getServer(zone: string, id: string): Promise<ScalewayServer>;
  /** Creates the server, stopped. */
  createServer(request: CreateServerRequest): Promise<ScalewayServer>;
  /** Sets a user data key (`cloud-init`), raw content. */
  setUserData(zone: string, serverId: string, key: string, content: string): Promise<void>;
  /** The keys of the server's user data. */
  listUserDataKeys(zone: string, serverId: string): Promise<string[]>;
  attachPrivateNetwork(zone: string, serverId: string, privateNetworkId: string): Promise<void>;
  /** Errors: InsufficientCapacityError (naming this commercial type and zone) when the zone has no stock. */
  powerOn(zone: string, serverId: string, commercialType: string): Promise<void>;
  /** Stops the server, deletes its local volumes and only detaches its Block volumes. */
  terminate(zone: string, serverId: string): Promise<void>;
  /** Deletes a stopped server. */
  deleteServer(zone: string, serverId: string): Promise<void>;
  /** Block volumes of the zone whose name contains `name` (the API matches substrings). */
  listBlockVolumes(zone: string, name: string): Promise<ScalewayBlockVolume[]>;
  /** Errors: NodeClaimNotFoundError when the volume does not exist. */
  deleteBlockVolume(zone: string, volumeId: string): Promise<void>;
  /**
   * The image the zone boots for `image`, a marketplace label (`ubuntu_jammy`, its local images of the zone)
   * or an image UUID; undefined when there is none.
   */
  findImage(zone: string, image: string): Promise<{ id: string; name?: string } | undefined>;
}

export const ScalewayApiCalls: ApiCallKinds<ScalewayApi> = {
  listServerTypes: 'read',
  getServerTypesAvailability: 'read',
  listServersPage: 'read',
  getServer: 'read',
  createServer: 'write',
  setUserData: 'write',
  listUserDataKeys: 'read',
  attachPrivateNetwork: 'write',
  powerOn: 'write',
  terminate: 'write',
  deleteServer: 'write',
  listBlockVolumes: 'read',
  deleteBlockVolume: 'write',
  findImage: 'read',
};
