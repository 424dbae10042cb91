/** Wire (snake_case) shapes of servers, volumes and tasks, as the Instance and Block APIs return them. */
import { allowedActions } from './lifecycle.js';
import type { AttachedVolume, BlockVolumeRecord, ServerRecord, TaskRecord } from './records.js';

const iso = (ms: number): string => new Date(ms).toISOString();

function volumeWire(server: ServerRecord, v: AttachedVolume): Record<string, unknown> {
  if (v.volumeType === 'sbs_volume') {
    // The Instance API only references SBS volumes; their details live in the Block API.
    return { boot: v.boot, id: v.id, volume_type: 'sbs_volume', zone: server.zone, state: 'available' };
  }
  return {
    boot: v.boot,
    id: v.id,
    name: v.name,
    export_uri: null,
    organization: server.organization,
    project: server.project,
    server: { id: server.id, name: server.name },
    size: v.sizeBytes,
    volume_type: v.volumeType,
    creation_date: iso(v.createdAt),
    modification_date: iso(v.createdAt),
    tags: [],
    state: 'available',
    zone: server.zone,
  };
}

export function serverWire(server: ServerRecord): Record<string, unknown> {
  const volumes = Object.fromEntries(server.volumes.map((v) => [v.index, volumeWire(server, v)]));
  const publicIp = server.publicIpAddress
    ? {
        id: `${server.id.slice(0, 24)}000000000001`,
        address: server.publicIpAddress,
        dynamic: true,
        family: 'inet',
        provisioning_mode: 'dhcp',
        state: 'attached',
        tags: [],
      }
    : null;
  return {
    id: server.id,
    name: server.name,
    arch: server.arch,
    commercial_type: server.commercialType,
    boot_type: server.bootType,
    organization: server.organization,
    project: server.project,
    hostname: server.name,
    image: { id: server.image.id, name: server.image.name, arch: server.arch, public: true, state: 'available', zone: server.zone },
    volumes,
    tags: [...server.tags],
    state: server.state,
    state_detail: server.stateDetail,
    protected: server.protected,
    public_ip: publicIp,
    public_ips: publicIp ? [publicIp] : [],
    private_ip: server.privateIp ?? null,
    mac_address: server.macAddress,
    routed_ip_enabled: true,
    dynamic_ip_required: server.dynamicIpRequired,
    enable_ipv6: false,
    ipv6: null,
    private_nics: server.privateNics.map((n) => privateNicWire(server, n)),
    security_group: { ...server.securityGroup },
    placement_group: server.placementGroupId
      ? {
          id: server.placementGroupId,
          name: 'placement-group',
          organization: server.organization,
          project: server.project,
          policy_mode: 'optional',
          policy_type: 'max_availability',
          policy_respected: true,
          tags: [],
          zone: server.zone,
        }
      : null,
    location:
      server.state === 'running' || server.state === 'stopping'
        ? { zone_id: server.zone, platform_id: '14', cluster_id: '2', hypervisor_id: '101', node_id: '7' }
        : null,
    maintenances: [],
    allowed_actions: allowedActions(server.state),
    creation_date: iso(server.createdAt),
    modification_date: iso(server.modifiedAt),
    zone: server.zone,
    end_of_service: false,
    filesystems: [],
  };
}

export function privateNicWire(server: ServerRecord, nic: ServerRecord['privateNics'][number]): Record<string, unknown> {
  return {
    id: nic.id,
    server_id: server.id,
    private_network_id: nic.privateNetworkId,
    mac_address: nic.macAddress,
    state: 'available',
    tags: [],
    creation_date: iso(nic.createdAt),
    zone: server.zone,
  };
}

export function taskWire(task: TaskRecord, now: number): Record<string, unknown> {
  const done = now >= task.completesAt;
  return {
    id: task.id,
    description: task.description,
    status: done ? 'success' : 'pending',
    href_from: `/servers/${task.serverId}/action`,
    href_result: `/servers/${task.serverId}`,
    started_at: iso(task.startedAt),
    terminated_at: done ? iso(task.completesAt) : null,
    progress: done ? 100 : 0,
    zone: task.zone,
  };
}

export function blockVolumeWire(v: BlockVolumeRecord): Record<string, unknown> {
  const ref = v.attachedTo;
  return {
    id: v.id,
    name: v.name,
    type: v.type,
    size: v.sizeBytes,
    project_id: v.projectId,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    references: ref
      ? [
          {
            id: ref.referenceId,
            product_resource_type: 'instance_server',
            product_resource_id: ref.serverId,
            created_at: iso(ref.since),
            type: 'exclusive',
            status: 'attached',
          },
        ]
      : [],
    parent_snapshot_id: null,
    status: ref ? 'in_use' : 'available',
    tags: [...v.tags],
    specs: { perf_iops: v.type === 'sbs_15k' ? 15000 : 5000, class: 'sbs' },
    last_detached_at: v.lastDetachedAt === undefined ? null : iso(v.lastDetachedAt),
    zone: v.zone,
  };
}

/** The providerID a Node for this server carries (Scaleway's cloud controller manager format). */
export function providerIdOf(server: Pick<ServerRecord, 'zone' | 'id'>): string {
  return `scaleway://instance/${server.zone}/${server.id}`;
}
