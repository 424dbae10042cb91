/** ReadVmTypes, ReadRegions, ReadSubregions, ReadPublicCatalog, and the seeded network reads (images, subnets, security groups). */
import type { EmulatorContext } from './context.js';
import { publicCatalogEntries } from './public-catalog.js';
import { optionalObject, optionalStringList, type Body } from './validate.js';
import { paginate, tagList } from './wire.js';

function numberList(filters: Body, field: string): number[] | undefined {
  const value = filters[field];
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : undefined;
}

function paged(body: Body, key: string, items: unknown[]): Record<string, unknown> {
  const { page, nextPageToken } = paginate(body, items);
  return { [key]: page, ...(nextPageToken ? { NextPageToken: nextPageToken } : {}) };
}

export function readVmTypes(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const filters = optionalObject(body, 'Filters') ?? {};
  const names = optionalStringList(filters, 'VmTypeNames');
  const cores = numberList(filters, 'VcoreCounts');
  const memory = numberList(filters, 'MemorySizes');
  const gpus = numberList(filters, 'Gpus');
  const types = ctx.vmTypes.listed
    .filter(
      (t) =>
        (!names || names.includes(t.name)) &&
        (!cores || cores.includes(t.vcores)) &&
        (!memory || memory.includes(t.ramGiB)) &&
        (!gpus || gpus.includes(t.gpus)),
    )
    .map((t) => ({
      VmTypeName: t.name,
      VcoreCount: t.vcores,
      MemorySize: t.ramGiB,
      Gpu: t.gpus,
      Eth: 8,
      MaxPrivateIps: 30,
      BsuOptimized: true,
      VolumeCount: 0,
      VolumeSize: 0,
      EphemeralsType: 'local',
    }));
  return paged(body, 'VmTypes', types);
}

/** Every region of the cloud with its API endpoint, as the real ReadRegions lists them. */
export function readRegions(ctx: EmulatorContext): Record<string, unknown> {
  const names = [...new Set([ctx.region, ...ctx.catalog.regions.map((r) => r.name)])];
  return { Regions: names.map((name) => ({ RegionName: name, Endpoint: `api.${name}.outscale.com` })) };
}

export function readSubregions(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const filters = optionalObject(body, 'Filters') ?? {};
  const names = optionalStringList(filters, 'SubregionNames');
  const regions = optionalStringList(filters, 'RegionNames');
  const states = optionalStringList(filters, 'States');
  const subregions = ctx.subregions
    .filter((s) => (!names || names.includes(s)) && (!regions || regions.includes(ctx.region)) && (!states || states.includes('available')))
    .map((s) => ({ SubregionName: s, RegionName: ctx.region, State: 'available', LocationCode: `PAR${s.slice(-1).toUpperCase()}` }));
  return { Subregions: subregions };
}

export function readPublicCatalog(ctx: EmulatorContext): Record<string, unknown> {
  return { Catalog: { Entries: publicCatalogEntries(ctx.catalog, ctx.region) } };
}

export function readImages(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const filters = optionalObject(body, 'Filters') ?? {};
  const ids = optionalStringList(filters, 'ImageIds');
  const names = optionalStringList(filters, 'ImageNames');
  const images = [...ctx.store.images.values()]
    .filter((i) => (!ids || ids.includes(i.id)) && (!names || names.includes(i.name)))
    .map((i) => ({
      ImageId: i.id,
      ImageName: i.name,
      Architecture: i.architecture,
      State: 'available',
      Description: i.description,
      RootDeviceName: '/dev/sda1',
      Tags: tagList(ctx.store, i.id),
    }));
  return paged(body, 'Images', images);
}

function tagMatch(ctx: EmulatorContext, id: string, filters: Body): boolean {
  const keys = optionalStringList(filters, 'TagKeys');
  const pairs = optionalStringList(filters, 'Tags');
  const tags = ctx.store.tagsOf(id);
  return (
    (!keys || keys.some((k) => tags.has(k))) &&
    (!pairs || pairs.some((p) => tags.get(p.split('=')[0] ?? '') === p.slice(p.indexOf('=') + 1)))
  );
}

export function readSubnets(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const filters = optionalObject(body, 'Filters') ?? {};
  const ids = optionalStringList(filters, 'SubnetIds');
  const nets = optionalStringList(filters, 'NetIds');
  const subregions = optionalStringList(filters, 'SubregionNames');
  const subnets = [...ctx.store.subnets.values()]
    .filter(
      (s) =>
        (!ids || ids.includes(s.id)) &&
        (!nets || nets.includes(s.netId)) &&
        (!subregions || subregions.includes(s.subregion)) &&
        tagMatch(ctx, s.id, filters),
    )
    .map((s) => ({
      SubnetId: s.id,
      NetId: s.netId,
      SubregionName: s.subregion,
      IpRange: s.ipRange,
      AvailableIpsCount: 250 - s.nextHost,
      State: 'available',
      MapPublicIpOnLaunch: false,
      Tags: tagList(ctx.store, s.id),
    }));
  return paged(body, 'Subnets', subnets);
}

export function readSecurityGroups(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const filters = optionalObject(body, 'Filters') ?? {};
  const ids = optionalStringList(filters, 'SecurityGroupIds');
  const names = optionalStringList(filters, 'SecurityGroupNames');
  const nets = optionalStringList(filters, 'NetIds');
  const groups = [...ctx.store.securityGroups.values()]
    .filter(
      (g) =>
        (!ids || ids.includes(g.id)) &&
        (!names || names.includes(g.name)) &&
        (!nets || nets.includes(g.netId)) &&
        tagMatch(ctx, g.id, filters),
    )
    .map((g) => ({
      SecurityGroupId: g.id,
      SecurityGroupName: g.name,
      Description: g.description,
      NetId: g.netId,
      InboundRules: [],
      OutboundRules: [],
      Tags: tagList(ctx.store, g.id),
    }));
  return paged(body, 'SecurityGroups', groups);
}
