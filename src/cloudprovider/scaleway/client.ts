/**
 * The Scaleway port implemented with the official SDK — the only file importing `@scaleway/sdk-*`.
 * The API URL is a setting, so the same code runs against api.scaleway.com or the loopback emulator.
 * SDK errors become core errors here (through `./errors.ts`); nothing above sees an SDK type.
 */
import { createAdvancedClient, withDefaultPageSize, withHTTPClient, withProfile, withUserAgent } from '@scaleway/sdk-client';
import { Blockv1alpha1 } from '@scaleway/sdk-block';
import { Instancev1 } from '@scaleway/sdk-instance';
import { Marketplacev2 } from '@scaleway/sdk-marketplace';
import type {
  CreateServerRequest,
  ScalewayApi,
  ScalewayAvailability,
  ScalewayBlockVolume,
  ScalewayServer,
  ScalewayServerState,
  ScalewayServerType,
} from './api.js';
import { IncompleteResponseError } from '../errors.js';
import { toCloudError, toNetworkError, type ErrorContext, type ScalewayFailure } from './errors.js';

export const DefaultScalewayApiUrl = 'https://api.scaleway.com';
/** A request that has not answered in this long is abandoned (and retried by the caller). */
export const DefaultRequestTimeoutMs = 30_000;
/** The API's largest page; fewer round trips when listing a big cluster. */
const PageSize = 100;

export interface ScalewayClientSettings {
  /** No trailing slash (the SDK refuses one). Default `https://api.scaleway.com`. */
  apiUrl?: string;
  accessKey: string;
  secretKey: string;
  projectId: string;
  organizationId?: string;
  /** Any zone of the region; calls always name their zone. */
  defaultZone: string;
  requestTimeoutMs?: number;
  /** Replaces the global fetch (tests inject faults at the HTTP level). */
  fetch?: typeof fetch;
}

type SdkServer = Instancev1.Server;
const UuidImage = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type SdkServerType = Instancev1.ServerType;

function isSdkError(err: unknown): err is { status: number; body: unknown; message: string } {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number' && 'body' in err;
}

function failureOf(err: { status: number; body: unknown; message: string }): ScalewayFailure {
  const body = (typeof err.body === 'object' && err.body !== null ? err.body : {}) as Record<string, unknown>;
  const details = Array.isArray(body.details) ? (body.details as Record<string, unknown>[]) : undefined;
  const reset = typeof body.reset_seconds === 'number' ? body.reset_seconds * 1000 : undefined;
  return {
    status: err.status,
    type: typeof body.type === 'string' ? body.type : undefined,
    message: typeof body.message === 'string' ? body.message : err.message,
    resource: typeof body.resource === 'string' ? body.resource : undefined,
    details,
    retryAfterMs: reset,
  };
}

/** Runs one SDK call and translates whatever it throws. */
async function call<T>(context: ErrorContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isSdkError(err)) throw toCloudError(failureOf(err), context);
    if (err instanceof IncompleteResponseError) throw err;
    throw toNetworkError(err, context);
  }
}

function toServerState(state: string): ScalewayServerState {
  const known: ScalewayServerState[] = ['running', 'stopped', 'stopped in place', 'starting', 'stopping', 'locked'];
  return (known as string[]).includes(state) ? (state as ScalewayServerState) : 'locked';
}

export function toScalewayServer(server: SdkServer): ScalewayServer {
  return {
    id: server.id,
    name: server.name,
    zone: server.zone,
    commercialType: server.commercialType,
    state: toServerState(server.state),
    stateDetail: server.stateDetail,
    tags: [...server.tags],
    imageId: server.image?.id,
    securityGroupId: server.securityGroup?.id,
    placementGroupId: server.placementGroup?.id,
    privateNetworkIds: server.privateNics.map((nic) => nic.privateNetworkId),
    volumes: Object.values(server.volumes).map((v) => ({ id: v.id, volumeType: v.volumeType, boot: v.boot })),
    createdAt: server.creationDate?.getTime() ?? 0,
  };
}

export function toScalewayServerType(commercialType: string, type: SdkServerType): ScalewayServerType {
  return {
    commercialType,
    ...(Number.isFinite(type.hourlyPrice) ? { hourlyPrice: type.hourlyPrice } : {}),
    ncpus: type.ncpus,
    ramBytes: type.ram,
    gpuCount: type.gpu ?? 0,
    ...(type.gpuInfo ? { gpuName: type.gpuInfo.gpuName, gpuMemoryBytes: type.gpuInfo.gpuMemory } : {}),
    arch: type.arch === 'arm64' || type.arch === 'arm' ? 'arm64' : 'amd64',
    maxLocalVolumeBytes: type.volumesConstraint?.maxSize ?? 0,
    endOfService: type.endOfService,
  };
}

function timedFetch(base: typeof fetch, timeoutMs: number): typeof fetch {
  return (input, init) => {
    const signal = AbortSignal.timeout(timeoutMs);
    return base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
  };
}

/** Pages through a map-shaped product listing (keyed by commercial type) until `totalCount` entries are read. */
async function allProductPages<T>(
  fetchPage: (page: number) => Promise<{ servers: Record<string, T>; totalCount?: number }>,
): Promise<Record<string, T>> {
  const all: Record<string, T> = {};
  for (let page = 1; ; page += 1) {
    const { servers, totalCount } = await fetchPage(page);
    const entries = Object.entries(servers);
    Object.assign(all, servers);
    if (entries.length === 0 || totalCount === undefined || Object.keys(all).length >= totalCount) return all;
  }
}

/**
 * Every page of a listing that announces its total: a page without the total, or one that comes back empty
 * before the total is reached, is an IncompleteResponseError (the SDK reads a missing list as []).
 */
async function allCountedPages<T>(
  operation: string,
  fetchPage: (page: number) => Promise<{ items: T[]; totalCount: number }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page += 1) {
    const { items, totalCount } = await fetchPage(page);
    if (!Number.isSafeInteger(totalCount) || totalCount < 0)
      throw new IncompleteResponseError(`${operation}: page ${page} has no total count`);
    all.push(...items);
    if (all.length >= totalCount) return all;
    if (items.length === 0)
      throw new IncompleteResponseError(`${operation}: page ${page} is empty after ${all.length} of the ${totalCount} entries announced`);
  }
}

export function createScalewayClient(settings: ScalewayClientSettings): ScalewayApi {
  const baseFetch = settings.fetch ?? globalThis.fetch;
  const client = createAdvancedClient(
    withProfile({
      apiURL: settings.apiUrl ?? DefaultScalewayApiUrl,
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
      defaultProjectId: settings.projectId,
      ...(settings.organizationId ? { defaultOrganizationId: settings.organizationId } : {}),
      defaultZone: settings.defaultZone,
      defaultRegion: settings.defaultZone.replace(/-\d+$/, ''),
    }),
    withHTTPClient(timedFetch(baseFetch, settings.requestTimeoutMs ?? DefaultRequestTimeoutMs)),
    withDefaultPageSize(PageSize),
    withUserAgent('karpenter-eu'),
  );
  const instance = new Instancev1.API(client);
  const block = new Blockv1alpha1.API(client);
  const marketplace = new Marketplacev2.API(client);

  return {
    findImage: (zone, image) =>
      call({ operation: `resolving image ${image} in ${zone}` }, async () => {
        if (UuidImage.test(image)) {
          try {
            const found = await instance.getImage({ zone, imageId: image });
            return found.image ? { id: found.image.id, name: found.image.name } : undefined;
          } catch (err) {
            if (isSdkError(err) && failureOf(err).status === 404) return undefined;
            throw err;
          }
        }
        const { localImages } = await marketplace.listLocalImages({ zone, imageLabel: image, pageSize: PageSize });
        // The root volume is a Block (SBS) volume unless the class asks for local storage: prefer that image.
        const local = localImages.find((i) => i.type === 'instance_sbs') ?? localImages[0];
        return local ? { id: local.id, name: local.label } : undefined;
      }),
    listServerTypes: (zone) =>
      call({ operation: `listing server types in ${zone}` }, async () => {
        const all = await allProductPages((page) => instance.listServersTypes({ zone, page, perPage: PageSize }));
        return Object.entries(all).map(([name, type]) => toScalewayServerType(name, type));
      }),
    getServerTypesAvailability: (zone) =>
      call({ operation: `reading server types availability in ${zone}` }, async () => {
        const all = await allProductPages((page) => instance.getServerTypesAvailability({ zone, page, perPage: PageSize }));
        return Object.fromEntries(Object.entries(all).map(([name, a]) => [name, a.availability as ScalewayAvailability]));
      }),
    listServersPage: (zone, tags, page, perPage) =>
      call({ operation: `listing servers in ${zone} (page ${page})` }, async () => {
        const res = await instance.listServers({ zone, tags: [...tags], page, perPage, project: settings.projectId });
        // The SDK reads a missing `servers` as []: without the total the API always sends, the page proves nothing.
        if (!Number.isSafeInteger(res.totalCount) || res.totalCount < 0) {
          throw new IncompleteResponseError(`listing servers in ${zone} (page ${page}): the answer has no total count (X-Total-Count)`);
        }
        return { servers: res.servers.map(toScalewayServer), totalCount: res.totalCount };
      }),
    getServer: (zone, id) =>
      call({ operation: `getting server ${zone}/${id}` }, async () => {
        const { server } = await instance.getServer({ zone, serverId: id });
        if (!server) throw new IncompleteResponseError(`getting server ${zone}/${id}: the answer has no server`);
        return toScalewayServer(server);
      }),
    createServer: (request: CreateServerRequest) =>
      call(
        {
          operation: `creating server ${request.commercialType} in ${request.zone}`,
          offering: { instanceType: request.commercialType, zone: request.zone, capacityType: 'on-demand' },
        },
        async () => {
          const res = await instance.createServer({
            zone: request.zone,
            name: request.name,
            commercialType: request.commercialType,
            image: request.image,
            project: request.projectId,
            tags: request.tags,
            dynamicIpRequired: true,
            protected: false,
            bootType: 'local',
            volumes: {
              '0': { name: request.rootVolume.name, size: request.rootVolume.sizeBytes, volumeType: request.rootVolume.type, boot: false },
            },
            ...(request.securityGroupId ? { securityGroup: request.securityGroupId } : {}),
            ...(request.placementGroupId ? { placementGroup: request.placementGroupId } : {}),
          });
          if (!res.server) throw new IncompleteResponseError(`creating server ${request.name}: the answer has no server`);
          return toScalewayServer(res.server);
        },
      ),
    setUserData: (zone, serverId, key, content) =>
      call({ operation: `setting user data ${key} of server ${zone}/${serverId}` }, async () => {
        await instance.setServerUserData({ zone, serverId, key, content });
      }),
    listUserDataKeys: (zone, serverId) =>
      call(
        { operation: `listing user data of server ${zone}/${serverId}` },
        async () => (await instance.listServerUserData({ zone, serverId })).userData,
      ),
    attachPrivateNetwork: (zone, serverId, privateNetworkId) =>
      call({ operation: `attaching server ${zone}/${serverId} to private network ${privateNetworkId}` }, async () => {
        await instance.createPrivateNIC({ zone, serverId, privateNetworkId });
      }),
    powerOn: (zone, serverId, commercialType) =>
      call(
        {
          operation: `powering on server ${zone}/${serverId}`,
          offering: { instanceType: commercialType, zone, capacityType: 'on-demand' },
        },
        async () => {
          await instance.serverAction({ zone, serverId, action: 'poweron' });
        },
      ),
    terminate: (zone, serverId) =>
      call({ operation: `terminating server ${zone}/${serverId}` }, async () => {
        await instance.serverAction({ zone, serverId, action: 'terminate' });
      }),
    deleteServer: (zone, serverId) =>
      call({ operation: `deleting server ${zone}/${serverId}` }, async () => {
        await instance.deleteServer({ zone, serverId });
      }),
    listBlockVolumes: (zone, name) =>
      call({ operation: `listing block volumes named ${name} in ${zone}` }, async () => {
        const volumes = await allCountedPages(`listing block volumes named ${name} in ${zone}`, async (page) => {
          const res = await block.listVolumes({ zone, name, projectId: settings.projectId, page, pageSize: PageSize });
          return { items: res.volumes, totalCount: res.totalCount };
        });
        return volumes.map((v): ScalewayBlockVolume => ({ id: v.id, name: v.name, zone: v.zone, status: v.status }));
      }),
    deleteBlockVolume: (zone, volumeId) =>
      call({ operation: `deleting block volume ${zone}/${volumeId}` }, async () => {
        await block.deleteVolume({ zone, volumeId });
      }),
  };
}

/**
 * The zones the Instance API serves, as the SDK lists them (generated from the API's own description); the
 * API has no call that lists zones.
 */
export function instanceApiZones(): string[] {
  const locality = Instancev1.API.LOCALITY;
  return locality.type === 'zone' ? [...locality.zones] : [];
}
