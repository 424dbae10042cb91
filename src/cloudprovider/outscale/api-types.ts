/**
 * The Outscale API (OAPI v1) request and response shapes for the calls karpenter-eu makes, PascalCase as on
 * the wire (field names from osc-sdk-js `src/models/*.ts`). Only the fields used are typed; the API accepts more.
 */

export interface ResponseContext {
  RequestId: string;
}

export interface WithResponseContext {
  ResponseContext: ResponseContext;
}

export interface Paged {
  NextPageToken?: string;
  /** 1–1000. */
  ResultsPerPage?: number;
}

export interface ResourceTag {
  Key: string;
  Value: string;
}

export type VmState = 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated' | 'quarantine';
export type Performance = 'medium' | 'high' | 'highest';

export interface Placement {
  SubregionName: string;
  Tenancy?: 'default' | 'dedicated';
}

export interface BsuToCreate {
  VolumeSize?: number;
  VolumeType?: 'standard' | 'gp2' | 'io1';
  Iops?: number;
  SnapshotId?: string;
  DeleteOnVmDeletion?: boolean;
}

export interface BlockDeviceMappingVmCreation {
  DeviceName: string;
  Bsu?: BsuToCreate;
  NoDevice?: string;
  VirtualDeviceName?: string;
}

export interface BlockDeviceMappingCreated {
  DeviceName: string;
  Bsu: { VolumeId: string; State: string; LinkDate: string; DeleteOnVmDeletion: boolean };
}

export interface SecurityGroupLight {
  SecurityGroupId: string;
  SecurityGroupName: string;
}

export interface Vm {
  VmId: string;
  VmType: string;
  State: VmState;
  StateReason?: string;
  Placement: Placement;
  PrivateIp?: string;
  PrivateDnsName?: string;
  PublicIp?: string;
  PublicDnsName?: string;
  SubnetId?: string;
  NetId?: string;
  ImageId: string;
  KeypairName?: string;
  ClientToken?: string;
  CreationDate: string;
  LaunchNumber?: number;
  ReservationId?: string;
  Performance: Performance;
  Architecture?: string;
  BlockDeviceMappings: BlockDeviceMappingCreated[];
  SecurityGroups: SecurityGroupLight[];
  Tags: ResourceTag[];
  /** Base64, as sent at creation. */
  UserData?: string;
  DeletionProtection?: boolean;
  RootDeviceName?: string;
  OsFamily?: string;
}

export interface CreateVmsRequest {
  ImageId: string;
  VmType?: string;
  Performance?: Performance;
  SubnetId?: string;
  SecurityGroupIds?: string[];
  SecurityGroups?: string[];
  KeypairName?: string;
  /** Base64-encoded, at most 500 KiB. */
  UserData?: string;
  BlockDeviceMappings?: BlockDeviceMappingVmCreation[];
  Placement?: Placement;
  /** Idempotency: the same token returns the VMs of the first request. */
  ClientToken?: string;
  BootOnCreation?: boolean;
  MinVmsCount?: number;
  MaxVmsCount?: number;
  DeletionProtection?: boolean;
  VmInitiatedShutdownBehavior?: 'stop' | 'restart' | 'terminate';
  DryRun?: boolean;
}

export interface CreateVmsResponse extends WithResponseContext {
  Vms: Vm[];
}

export interface FiltersVm {
  VmIds?: string[];
  TagKeys?: string[];
  TagValues?: string[];
  /** `KEY=VALUE`. */
  Tags?: string[];
  VmStateNames?: VmState[];
  ClientTokens?: string[];
  SubregionNames?: string[];
  VmTypes?: string[];
  ImageIds?: string[];
  SubnetIds?: string[];
  PrivateIps?: string[];
}

export interface ReadVmsRequest extends Paged {
  Filters?: FiltersVm;
}

export interface ReadVmsResponse extends WithResponseContext {
  Vms: Vm[];
  NextPageToken?: string;
}

export interface VmStateChange {
  VmId: string;
  PreviousState: VmState;
  CurrentState: VmState;
}

export interface VmIdsRequest {
  VmIds: string[];
}

export interface StopVmsRequest extends VmIdsRequest {
  ForceStop?: boolean;
}

export interface VmStatesResponse extends WithResponseContext {
  Vms: VmStateChange[];
}

export interface CreateTagsRequest {
  ResourceIds: string[];
  Tags: ResourceTag[];
}

export interface DeleteTagsRequest {
  ResourceIds: string[];
  /** A tag with an empty or absent Value matches any value of that key. */
  Tags: { Key: string; Value?: string }[];
}

export interface Tag {
  ResourceId: string;
  ResourceType: string;
  Key: string;
  Value: string;
}

export interface ReadTagsRequest extends Paged {
  Filters?: { Keys?: string[]; Values?: string[]; ResourceIds?: string[]; ResourceTypes?: string[] };
}

export interface ReadTagsResponse extends WithResponseContext {
  Tags: Tag[];
  NextPageToken?: string;
}

export interface VmType {
  VmTypeName: string;
  VcoreCount: number;
  /** GiB. */
  MemorySize: number;
  Gpu?: number;
  Eth?: number;
  MaxPrivateIps?: number;
  BsuOptimized?: boolean;
  VolumeCount?: number;
  VolumeSize?: number;
  EphemeralsType?: string;
}

export interface ReadVmTypesRequest extends Paged {
  Filters?: { VmTypeNames?: string[]; VcoreCounts?: number[]; MemorySizes?: number[]; Gpus?: number[] };
}

export interface ReadVmTypesResponse extends WithResponseContext {
  VmTypes: VmType[];
  NextPageToken?: string;
}

export interface Subregion {
  SubregionName: string;
  RegionName: string;
  State: string;
  LocationCode?: string;
}

export interface Region {
  RegionName: string;
  Endpoint: string;
}

export interface ReadRegionsResponse extends WithResponseContext {
  Regions: Region[];
}

export interface ReadSubregionsRequest {
  Filters?: { RegionNames?: string[]; SubregionNames?: string[]; States?: string[] };
}

export interface ReadSubregionsResponse extends WithResponseContext {
  Subregions: Subregion[];
}

export interface CatalogEntry {
  Service: string;
  Type: string;
  Operation: string;
  Category?: string;
  Flags?: string;
  SubregionName?: string;
  Title?: string;
  /** EUR per unit per hour (per vCore, per GiB, per GPU). */
  UnitPrice: number;
}

export interface ReadPublicCatalogResponse extends WithResponseContext {
  Catalog: { Entries: CatalogEntry[] };
}

export interface Image {
  ImageId: string;
  ImageName: string;
  Architecture: string;
  State: string;
  AccountAlias?: string;
  Description?: string;
  RootDeviceName?: string;
}

export interface ReadImagesRequest extends Paged {
  Filters?: { ImageIds?: string[]; ImageNames?: string[]; States?: string[] };
}

export interface ReadImagesResponse extends WithResponseContext {
  Images: Image[];
  NextPageToken?: string;
}

export interface Subnet {
  SubnetId: string;
  NetId: string;
  SubregionName: string;
  IpRange: string;
  AvailableIpsCount: number;
  State: string;
  Tags: ResourceTag[];
}

export interface ReadSubnetsRequest extends Paged {
  Filters?: { SubnetIds?: string[]; NetIds?: string[]; SubregionNames?: string[]; TagKeys?: string[]; Tags?: string[] };
}

export interface ReadSubnetsResponse extends WithResponseContext {
  Subnets: Subnet[];
  NextPageToken?: string;
}

export interface SecurityGroup {
  SecurityGroupId: string;
  SecurityGroupName: string;
  Description: string;
  NetId?: string;
  Tags: ResourceTag[];
}

export interface ReadSecurityGroupsRequest extends Paged {
  Filters?: { SecurityGroupIds?: string[]; SecurityGroupNames?: string[]; NetIds?: string[]; TagKeys?: string[]; Tags?: string[] };
}

export interface ReadSecurityGroupsResponse extends WithResponseContext {
  SecurityGroups: SecurityGroup[];
  NextPageToken?: string;
}

export type FlexibleGpuState = 'allocated' | 'attaching' | 'attached' | 'detaching';

export interface FlexibleGpu {
  FlexibleGpuId: string;
  ModelName: string;
  SubregionName: string;
  Generation: string;
  State: FlexibleGpuState;
  VmId?: string;
  DeleteOnVmDeletion: boolean;
}

export interface CreateFlexibleGpuRequest {
  ModelName: string;
  SubregionName: string;
  Generation?: string;
  DeleteOnVmDeletion?: boolean;
}

export interface FlexibleGpuResponse extends WithResponseContext {
  FlexibleGpu: FlexibleGpu;
}

export interface LinkFlexibleGpuRequest {
  FlexibleGpuId: string;
  VmId: string;
}

export interface FlexibleGpuIdRequest {
  FlexibleGpuId: string;
}

export interface ReadFlexibleGpusRequest {
  Filters?: {
    FlexibleGpuIds?: string[];
    VmIds?: string[];
    States?: FlexibleGpuState[];
    SubregionNames?: string[];
    ModelNames?: string[];
    DeleteOnVmDeletion?: boolean;
  };
}

export interface ReadFlexibleGpusResponse extends WithResponseContext {
  FlexibleGpus: FlexibleGpu[];
}

export interface FlexibleGpuCatalogEntry {
  ModelName: string;
  /** MiB of GPU memory. */
  VRam: number;
  MaxCpu: number;
  MaxRam: number;
  Generations: string[];
}

export interface ReadFlexibleGpuCatalogResponse extends WithResponseContext {
  FlexibleGpuCatalog: FlexibleGpuCatalogEntry[];
}

export interface ApiErrorEntry {
  Code: string;
  Type: string;
  Details: string;
}

export interface ErrorResponse extends WithResponseContext {
  Errors: ApiErrorEntry[];
}
