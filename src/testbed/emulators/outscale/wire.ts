/** Records → OAPI wire objects, and OAPI pagination (`NextPageToken` / `ResultsPerPage`). */
import type { FlexibleGpuRecord, VmRecord } from './records.js';
import type { OutscaleStore } from './store.js';
import { optionalInteger, optionalString, type Body } from './validate.js';
import { wireErrors } from './wire-errors.js';

/** The providerID a Node for this VM carries (cloud-provider-osc `ProviderID()`). */
export function providerIdOf(vm: Pick<VmRecord, 'id' | 'subregion'>): string {
  return `aws:///${vm.subregion}/${vm.id}`;
}

export function tagList(store: OutscaleStore, id: string): { Key: string; Value: string }[] {
  return [...store.tagsOf(id)].map(([Key, Value]) => ({ Key, Value }));
}

export function vmToWire(store: OutscaleStore, vm: VmRecord): Record<string, unknown> {
  return {
    VmId: vm.id,
    VmType: vm.vmType,
    State: vm.state,
    StateReason: vm.stateReason ?? '',
    Placement: { SubregionName: vm.subregion, Tenancy: 'default' },
    PrivateIp: vm.privateIp,
    PrivateDnsName: vm.privateDnsName,
    ...(vm.subnetId ? { SubnetId: vm.subnetId, NetId: vm.netId } : {}),
    ImageId: vm.imageId,
    ...(vm.keypairName ? { KeypairName: vm.keypairName } : {}),
    ClientToken: vm.clientToken ?? '',
    CreationDate: new Date(vm.createdAt).toISOString(),
    LaunchNumber: vm.launchNumber,
    ReservationId: vm.reservationId,
    Performance: vm.performance,
    Architecture: 'x86_64',
    BlockDeviceMappings: vm.blockDevices.map((b) => ({
      DeviceName: b.deviceName,
      Bsu: {
        VolumeId: b.volumeId,
        State: 'attached',
        LinkDate: new Date(vm.createdAt).toISOString(),
        DeleteOnVmDeletion: b.deleteOnVmDeletion,
      },
    })),
    SecurityGroups: vm.securityGroups.map((g) => ({ SecurityGroupId: g.id, SecurityGroupName: g.name })),
    Tags: tagList(store, vm.id),
    ...(vm.userData ? { UserData: vm.userData } : {}),
    DeletionProtection: vm.deletionProtection,
    RootDeviceName: '/dev/sda1',
    RootDeviceType: 'ebs',
    OsFamily: '',
    Hypervisor: 'xen',
    ProductCodes: ['0001'],
    Nics: [],
  };
}

export function flexibleGpuToWire(gpu: FlexibleGpuRecord): Record<string, unknown> {
  return {
    FlexibleGpuId: gpu.id,
    ModelName: gpu.modelName,
    SubregionName: gpu.subregion,
    Generation: gpu.generation,
    State: gpu.state,
    DeleteOnVmDeletion: gpu.deleteOnVmDeletion,
    ...(gpu.vmId ? { VmId: gpu.vmId } : {}),
  };
}

const DEFAULT_PAGE = 100;

function decodeToken(token: string): number {
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const m = /^offset:(\d+)$/.exec(decoded);
  if (!m) throw wireErrors.invalidValue('NextPageToken', token, 'a token returned by a previous call');
  return Number(m[1]);
}

/** One page of `items` per the request's NextPageToken / ResultsPerPage, never more than `limit` items. */
export function paginate<T>(body: Body, items: T[], limit = Number.POSITIVE_INFINITY): { page: T[]; nextPageToken?: string } {
  const size = Math.min(optionalInteger(body, 'ResultsPerPage', 1, 1000) ?? DEFAULT_PAGE, limit);
  const token = optionalString(body, 'NextPageToken');
  const offset = token ? decodeToken(token) : 0;
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { page, nextPageToken: Buffer.from(`offset:${next}`).toString('base64') } : { page };
}
