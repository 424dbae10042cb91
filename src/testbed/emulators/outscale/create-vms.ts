/**
 * CreateVms: validates like the real API (unknown image/type/subnet/subregion/keypair, bad base64 user data,
 * bad block devices), honours ClientToken idempotency (the same token returns the VMs of the first call),
 * enforces the account quotas, and starts each VM `pending` (→ running, or → stopped with BootOnCreation=false).
 */
import type { EmulatorContext } from './context.js';
import type { BlockDeviceRecord, VmRecord } from './records.js';
import {
  oneOf,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalObjectList,
  optionalString,
  optionalStringList,
  requiredString,
  type Body,
} from './validate.js';
import { DEFAULT_VM_TYPE, parseTinaType, type PerformanceName, type VmTypeInfo } from './vm-types.js';
import { vmToWire } from './wire.js';
import { NotFoundCodes, wireErrors } from './wire-errors.js';

const MAX_USER_DATA_BYTES = 500 * 1024;
const PERFORMANCES: readonly PerformanceName[] = ['medium', 'high', 'highest'];
const VOLUME_TYPES = ['standard', 'gp2', 'io1'] as const;

/** What a CreateVms launches, for fault rules scoped to a type or subregion (read leniently: faults come before validation). */
export function launchTargetOf(ctx: EmulatorContext, body: Body): { instanceType: string; zone?: string } {
  const instanceType = typeof body.VmType === 'string' ? body.VmType : DEFAULT_VM_TYPE;
  const placement = body.Placement as { SubregionName?: unknown } | undefined;
  if (typeof placement?.SubregionName === 'string') return { instanceType, zone: placement.SubregionName };
  const subnet = typeof body.SubnetId === 'string' ? ctx.store.subnets.get(body.SubnetId) : undefined;
  return { instanceType, zone: subnet?.subregion ?? ctx.subregions[0] };
}

function resolvePlacement(ctx: EmulatorContext, body: Body): { subregion: string; subnetId?: string; netId?: string } {
  const subnetId = optionalString(body, 'SubnetId');
  const wanted = optionalString(optionalObject(body, 'Placement') ?? {}, 'SubregionName');
  if (wanted !== undefined && !ctx.subregions.includes(wanted)) throw wireErrors.notFound(NotFoundCodes.subregion, 'subregion', wanted);
  if (subnetId === undefined) return { subregion: wanted ?? (ctx.subregions[0] as string) };
  const subnet = ctx.store.subnets.get(subnetId);
  if (!subnet) throw wireErrors.notFound(NotFoundCodes.subnet, 'subnet', subnetId);
  if (wanted !== undefined && wanted !== subnet.subregion) {
    throw wireErrors.invalidValue('Placement.SubregionName', wanted, `the subregion of subnet ${subnetId} (${subnet.subregion})`);
  }
  return { subregion: subnet.subregion, subnetId, netId: subnet.netId };
}

function resolveSecurityGroups(ctx: EmulatorContext, body: Body): { id: string; name: string }[] {
  const byId = (optionalStringList(body, 'SecurityGroupIds') ?? []).map((id) => {
    const sg = ctx.store.securityGroups.get(id);
    if (!sg) throw wireErrors.notFound(NotFoundCodes.securityGroup, 'security group', id);
    return { id: sg.id, name: sg.name };
  });
  const byName = (optionalStringList(body, 'SecurityGroups') ?? []).map((name) => {
    const sg = [...ctx.store.securityGroups.values()].find((g) => g.name === name);
    if (!sg) throw wireErrors.notFound(NotFoundCodes.securityGroup, 'security group', name);
    return { id: sg.id, name: sg.name };
  });
  const all = [...byId, ...byName];
  if (all.length > 0) return all;
  const fallback = [...ctx.store.securityGroups.values()].find((g) => g.name === 'default');
  return fallback ? [{ id: fallback.id, name: fallback.name }] : [];
}

function checkUserData(body: Body): string | undefined {
  const userData = optionalString(body, 'UserData');
  if (userData === undefined || userData === '') return undefined;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(userData) || userData.length % 4 !== 0) {
    throw wireErrors.invalidValue('UserData', `${userData.slice(0, 16)}…`, 'base64-encoded data');
  }
  if (Buffer.from(userData, 'base64').length > MAX_USER_DATA_BYTES) {
    throw wireErrors.invalidValue('UserData', `${userData.length} base64 characters`, 'at most 500 KiB once decoded');
  }
  return userData;
}

/** The block devices asked for (volume ids are given per VM). */
function blockDevices(body: Body): BlockDeviceRecord[] {
  const mappings = optionalObjectList(body, 'BlockDeviceMappings') ?? [];
  const records = mappings.map((m, i) => {
    const deviceName = requiredString(m, 'DeviceName');
    const bsu = optionalObject(m, 'Bsu') ?? {};
    const volumeType = oneOf(`BlockDeviceMappings[${i}].Bsu.VolumeType`, optionalString(bsu, 'VolumeType'), VOLUME_TYPES) ?? 'standard';
    const iops = optionalInteger(bsu, 'Iops', 1, 13_000);
    if (volumeType === 'io1' && iops === undefined) throw wireErrors.missing(`BlockDeviceMappings[${i}].Bsu.Iops`);
    return {
      deviceName,
      volumeId: '',
      sizeGiB: optionalInteger(bsu, 'VolumeSize', 1, 14_901) ?? 10,
      volumeType,
      deleteOnVmDeletion: optionalBoolean(bsu, 'DeleteOnVmDeletion') ?? true,
    };
  });
  if (!records.some((r) => r.deviceName === '/dev/sda1')) {
    records.unshift({ deviceName: '/dev/sda1', volumeId: '', sizeGiB: 10, volumeType: 'standard', deleteOnVmDeletion: true });
  }
  return records;
}

function resolveType(ctx: EmulatorContext, body: Body): { type: VmTypeInfo; performance: PerformanceName } {
  const name = optionalString(body, 'VmType') ?? DEFAULT_VM_TYPE;
  const type = ctx.vmTypes.resolve(name);
  if (!type) throw wireErrors.notFound(NotFoundCodes.vmType, 'vm type', name);
  const requested = oneOf('Performance', optionalString(body, 'Performance'), PERFORMANCES) ?? 'high';
  const tina = parseTinaType(name);
  return { type, performance: tina?.explicitPerformance ? tina.performance : requested };
}

function vmCount(body: Body): { min: number; max: number } {
  const min = optionalInteger(body, 'MinVmsCount', 1, 100) ?? 1;
  const max = optionalInteger(body, 'MaxVmsCount', 1, 100) ?? min;
  if (max < min) throw wireErrors.invalidValue('MaxVmsCount', max, `a count of at least MinVmsCount (${min})`);
  return { min, max };
}

/** How many of the wanted VMs the quotas allow; throws the 10xxx error when fewer than `min`. */
function allowedCount(ctx: EmulatorContext, type: VmTypeInfo, min: number, max: number): number {
  const live = [...ctx.store.vms.values()].filter((v) => v.state !== 'terminated' && v.state !== 'shutting-down');
  const { maxVms, maxCores } = ctx.settings.quotas;
  let allowed = max;
  if (maxVms !== undefined) allowed = Math.min(allowed, maxVms - live.length);
  if (allowed < min) throw wireErrors.quota('10010', `the limit of ${maxVms} vms for this account is reached`);
  if (maxCores !== undefined) {
    const used = live.reduce((sum, v) => sum + v.vcores, 0);
    allowed = Math.min(allowed, Math.floor((maxCores - used) / type.vcores));
    if (allowed < min) throw wireErrors.quota('10029', `the limit of ${maxCores} vcores for this account is reached`);
  }
  return allowed;
}

function privateAddress(ctx: EmulatorContext, subnetId: string | undefined): { ip: string; dns: string } {
  const subnet = subnetId ? ctx.store.subnets.get(subnetId) : undefined;
  const octet = subnet?.octet ?? 200;
  const host = subnet ? subnet.nextHost++ : 10 + ctx.store.vms.size;
  const ip = `10.0.${octet}.${(host % 250) + 4}`;
  return { ip, dns: `ip-${ip.replaceAll('.', '-')}.${ctx.region}.compute.internal` };
}

export function createVms(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const { store, clock } = ctx;
  const now = clock.now();
  store.settle(now);
  const clientToken = optionalString(body, 'ClientToken');
  const earlier = clientToken ? store.clientTokens.get(clientToken) : undefined;
  if (earlier) {
    return {
      Vms: earlier
        .map((id) => store.vms.get(id))
        .filter((v): v is VmRecord => v !== undefined)
        .map((v) => vmToWire(store, v)),
    };
  }
  const imageId = requiredString(body, 'ImageId');
  if (!store.images.has(imageId)) throw wireErrors.notFound(NotFoundCodes.image, 'image', imageId);
  const { type, performance } = resolveType(ctx, body);
  const placement = resolvePlacement(ctx, body);
  const securityGroups = resolveSecurityGroups(ctx, body);
  const keypairName = optionalString(body, 'KeypairName');
  if (keypairName !== undefined && !store.keypairs.has(keypairName))
    throw wireErrors.notFound(NotFoundCodes.keypair, 'keypair', keypairName);
  const userData = checkUserData(body);
  const boot = optionalBoolean(body, 'BootOnCreation') ?? true;
  const deletionProtection = optionalBoolean(body, 'DeletionProtection') ?? false;
  const devices = blockDevices(body);
  const { min, max } = vmCount(body);
  const count = allowedCount(ctx, type, min, max);
  const reservationId = ctx.ids.next('r');
  const created: VmRecord[] = [];
  for (let i = 0; i < count; i += 1) {
    const address = privateAddress(ctx, placement.subnetId);
    const vm: VmRecord = {
      id: ctx.ids.next('i'),
      vmType: type.name,
      vcores: type.vcores,
      ramGiB: type.ramGiB,
      generation: type.generation,
      performance,
      ...placement,
      imageId,
      keypairName,
      securityGroups,
      userData,
      clientToken,
      reservationId,
      launchNumber: store.nextLaunchNumber(),
      createdAt: now,
      visibleAt: now + ctx.settings.consistencyDelayMs,
      privateIp: address.ip,
      privateDnsName: address.dns,
      blockDevices: devices.map((d) => ({ ...d, volumeId: ctx.ids.next('vol') })),
      deletionProtection,
      state: 'pending',
      stateSince: now,
      pendingTarget: boot ? 'running' : 'stopped',
    };
    store.vms.set(vm.id, vm);
    store.register(vm.id, 'vm');
    created.push(vm);
  }
  if (clientToken)
    store.clientTokens.set(
      clientToken,
      created.map((v) => v.id),
    );
  return { Vms: created.map((v) => vmToWire(store, v)) };
}
