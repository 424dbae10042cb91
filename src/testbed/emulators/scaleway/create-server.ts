/**
 * `POST /instance/v1/zones/{zone}/servers`: validates the body as the real API does and builds the server
 * (created `stopped`) with its root volume. SBS volumes are also Block API volumes.
 */
import type { CatalogFlavor } from '../../../catalog/types.js';
import { invalidArgument, outOfStock, permissionsDenied, quotaResourceName, quotasExceeded } from './api-error.js';
import { callerOf, type EmulatorContext, type RequestContext } from './context.js';
import { imageIdForLabel, UUID_PATTERN } from './ids.js';
import type { AttachedVolume, ImageRef, ServerRecord } from './records.js';
import { parseJsonObject, type Reply } from './http-io.js';
import { serverWire } from './wire.js';

const VOLUME_TYPES = ['l_ssd', 'sbs_volume', 'scratch'] as const;
const BOOT_TYPES = ['local', 'bootscript', 'rescue'] as const;
const IMAGE_LABEL = /^[a-z0-9][a-z0-9_]*$/;

type Body = Record<string, unknown>;

function optionalString(body: Body, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidArgument(field, `${field} must be a string`, 'type');
  return v;
}

function optionalBoolean(body: Body, field: string, fallback: boolean): boolean {
  const v = body[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalidArgument(field, `${field} must be a boolean`, 'type');
  return v;
}

function optionalUuid(body: Body, field: string): string | undefined {
  const v = optionalString(body, field);
  if (v !== undefined && !UUID_PATTERN.test(v)) throw invalidArgument(field, `${field} "${v}" is not a valid UUID`);
  return v;
}

function parseTags(body: Body): string[] {
  const tags = body.tags;
  if (tags === undefined || tags === null) return [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
    throw invalidArgument('tags', 'tags must be a list of strings', 'type');
  return tags as string[];
}

function resolveFlavor(emu: EmulatorContext, zone: string, commercialType: string | undefined): CatalogFlavor {
  if (!commercialType) throw invalidArgument('commercial_type', 'commercial_type is required', 'required');
  const flavor = emu.zones.get(zone)?.flavors.get(commercialType);
  if (!flavor) throw invalidArgument('commercial_type', `commercial type "${commercialType}" is not available in zone ${zone}`);
  return flavor;
}

function resolveImage(body: Body, hasRootFromVolume: boolean): ImageRef {
  const image = optionalString(body, 'image');
  if (image === undefined) {
    if (hasRootFromVolume) return { id: '00000000-0000-0000-0000-000000000000', name: 'from volume' };
    throw invalidArgument('image', 'image is required (a UUID or a marketplace label such as ubuntu_jammy)', 'required');
  }
  if (UUID_PATTERN.test(image)) return { id: image, name: image };
  if (!IMAGE_LABEL.test(image)) throw invalidArgument('image', `image "${image}" is neither a UUID nor a marketplace label`);
  return { id: imageIdForLabel(image), name: image, label: image };
}

interface VolumeTemplate {
  index: string;
  volumeType: AttachedVolume['volumeType'];
  sizeBytes: number;
  boot: boolean;
  name?: string;
  fromExisting: boolean;
}

function parseVolumes(body: Body, defaultRootBytes: number): VolumeTemplate[] {
  const raw = body.volumes;
  if (raw === undefined || raw === null) {
    return [{ index: '0', volumeType: 'sbs_volume', sizeBytes: defaultRootBytes, boot: false, fromExisting: false }];
  }
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw invalidArgument('volumes', 'volumes must be a map of index to volume template', 'type');
  return Object.entries(raw as Record<string, unknown>).map(([index, value]) => {
    if (!/^\d+$/.test(index)) throw invalidArgument(`volumes.${index}`, 'volume keys are indexes ("0", "1", …)');
    if (typeof value !== 'object' || value === null) throw invalidArgument(`volumes.${index}`, 'volume template must be an object', 'type');
    const t = value as Body;
    const volumeType = (t.volume_type ?? 'sbs_volume') as string;
    if (!(VOLUME_TYPES as readonly string[]).includes(volumeType)) {
      throw invalidArgument(`volumes.${index}.volume_type`, `volume_type "${volumeType}" is not one of ${VOLUME_TYPES.join(', ')}`);
    }
    const fromExisting = typeof t.id === 'string' || typeof t.base_snapshot === 'string';
    const size = t.size;
    if (!fromExisting && (typeof size !== 'number' || !Number.isInteger(size) || size <= 0)) {
      throw invalidArgument(`volumes.${index}.size`, 'size is required in bytes for a new volume', 'required');
    }
    return {
      index,
      volumeType: volumeType as VolumeTemplate['volumeType'],
      sizeBytes: typeof size === 'number' ? size : defaultRootBytes,
      boot: t.boot === true,
      name: typeof t.name === 'string' ? t.name : undefined,
      fromExisting,
    };
  });
}

function checkLocalStorage(flavor: CatalogFlavor, volumes: VolumeTemplate[]): void {
  const maxBytes = (flavor.localDiskGiB ?? 0) * 1024 ** 3;
  const localBytes = volumes.filter((v) => v.volumeType === 'l_ssd').reduce((sum, v) => sum + v.sizeBytes, 0);
  if (localBytes > maxBytes) {
    throw invalidArgument(
      'volumes',
      `the total size of local volumes (${localBytes} bytes) exceeds ${maxBytes} bytes allowed by ${flavor.name}; use sbs_volume instead`,
    );
  }
}

function checkCapacity(emu: EmulatorContext, zone: string, project: string, flavor: CatalogFlavor): void {
  if (emu.availability.get(flavor.name, zone) === 'shortage') throw outOfStock(flavor.name);
  const quota = emu.settings.quotas.get(flavor.name);
  if (quota === undefined) return;
  const current = [...emu.store.servers.values()].filter((s) => s.project === project && s.commercialType === flavor.name).length;
  if (current + 1 > quota) throw quotasExceeded(quotaResourceName(flavor.name), quota, current);
}

function buildVolumes(emu: EmulatorContext, server: ServerRecord, templates: VolumeTemplate[], now: number): AttachedVolume[] {
  return templates.map((t) => {
    const id = emu.ids.uuid();
    const name = t.name ?? `${server.image.name}_${t.volumeType}_${t.index}`;
    if (t.volumeType === 'sbs_volume') {
      emu.store.blockVolumes.set(id, {
        id,
        name,
        zone: server.zone,
        projectId: server.project,
        sizeBytes: t.sizeBytes,
        type: 'sbs_5k',
        tags: [],
        createdAt: now,
        updatedAt: now,
        attachedTo: { serverId: server.id, since: now, referenceId: emu.ids.uuid() },
      });
    }
    return { index: t.index, id, name, volumeType: t.volumeType, sizeBytes: t.sizeBytes, boot: t.boot, createdAt: now };
  });
}

/** The commercial type a create body asks for, for fault matching before the request is handled. */
export function requestedCommercialType(rawBody: string): string | undefined {
  try {
    const body = parseJsonObject(rawBody);
    return typeof body.commercial_type === 'string' ? body.commercial_type : undefined;
  } catch {
    return undefined;
  }
}

export function createServer(emu: EmulatorContext, req: RequestContext): Reply {
  const caller = callerOf(req);
  const body = parseJsonObject(req.rawBody);
  const project = optionalUuid(body, 'project');
  if (!project) throw invalidArgument('project', 'project is required', 'required');
  if (project !== caller.projectId) throw permissionsDenied('write', 'instance_server');
  const flavor = resolveFlavor(emu, req.zone, optionalString(body, 'commercial_type'));
  const templates = parseVolumes(body, emu.settings.defaultRootVolumeBytes);
  const image = resolveImage(
    body,
    templates.some((t) => t.index === '0' && t.fromExisting),
  );
  checkLocalStorage(flavor, templates);
  const bootType = optionalString(body, 'boot_type') ?? 'local';
  if (!(BOOT_TYPES as readonly string[]).includes(bootType))
    throw invalidArgument('boot_type', `boot_type "${bootType}" is not one of ${BOOT_TYPES.join(', ')}`);
  const tags = parseTags(body);
  const securityGroupId = optionalUuid(body, 'security_group');
  const placementGroupId = optionalUuid(body, 'placement_group');
  checkCapacity(emu, req.zone, project, flavor);

  const now = req.now;
  const name = optionalString(body, 'name') || `srv-${emu.ids.uuid().slice(0, 8)}`;
  const server: ServerRecord = {
    id: emu.ids.uuid(),
    name,
    zone: req.zone,
    project,
    organization: caller.organizationId,
    commercialType: flavor.name,
    arch: flavor.arch === 'arm64' ? 'arm64' : 'x86_64',
    image,
    bootType: bootType as ServerRecord['bootType'],
    tags,
    dynamicIpRequired: optionalBoolean(body, 'dynamic_ip_required', true),
    protected: optionalBoolean(body, 'protected', false),
    securityGroup: securityGroupId
      ? { id: securityGroupId, name: 'security-group' }
      : { id: imageIdForLabel(`sg:${project}:${req.zone}`), name: 'Default security group' },
    placementGroupId,
    volumes: [],
    privateNics: [],
    userData: new Map(),
    macAddress: emu.ids.macAddress(),
    createdAt: now,
    modifiedAt: now,
    visibleAt: now + emu.settings.consistencyDelayMs,
    state: 'stopped',
    stateDetail: '',
  };
  server.volumes = buildVolumes(emu, server, templates, now);
  emu.store.servers.set(server.id, server);
  return { status: 201, json: { server: serverWire(server) } };
}
