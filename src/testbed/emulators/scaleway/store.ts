/**
 * The emulator's resources and their lazy progress. Every read first settles what the clock says is done
 * (boots, stops, terminations), so tests drive time with FakeClock.step().
 */
import { beginAction, settleServer, type LifecycleTimings } from './lifecycle.js';
import type { BlockVolumeRecord, ServerRecord, TaskRecord } from './records.js';
import { notFound } from './api-error.js';
import type { IdGenerator } from './ids.js';

export class ScalewayStore {
  readonly servers = new Map<string, ServerRecord>();
  readonly blockVolumes = new Map<string, BlockVolumeRecord>();
  readonly tasks = new Map<string, TaskRecord>();

  constructor(
    private readonly ids: IdGenerator,
    private readonly timings: LifecycleTimings,
  ) {}

  /** Applies every transition that has completed by `now`. */
  settle(now: number): void {
    for (const server of [...this.servers.values()]) {
      if (settleServer(server, now) === 'terminated') this.removeTerminated(server, now);
    }
  }

  /** terminate deletes local volumes but only detaches SBS volumes (they must be deleted via the Block API). */
  private removeTerminated(server: ServerRecord, now: number): void {
    this.servers.delete(server.id);
    this.detachBlockVolumes(server, server.transition?.completesAt ?? now);
  }

  detachBlockVolumes(server: ServerRecord, at: number): void {
    for (const v of server.volumes) {
      const block = v.volumeType === 'sbs_volume' ? this.blockVolumes.get(v.id) : undefined;
      if (!block) continue;
      block.attachedTo = undefined;
      block.lastDetachedAt = at;
      block.updatedAt = at;
    }
  }

  isVisible(server: ServerRecord, now: number): boolean {
    return now >= server.visibleAt;
  }

  /** Servers of a zone that reads can see now. */
  visibleServers(zone: string, now: number): ServerRecord[] {
    this.settle(now);
    return [...this.servers.values()].filter((s) => s.zone === zone && this.isVisible(s, now));
  }

  getServer(zone: string, id: string, now: number, project?: string): ServerRecord {
    this.settle(now);
    const server = this.servers.get(id);
    if (!server || server.zone !== zone || !this.isVisible(server, now) || (project && server.project !== project)) {
      throw notFound('instance_server', id);
    }
    return server;
  }

  getBlockVolume(zone: string, id: string, now: number, project?: string): BlockVolumeRecord {
    this.settle(now);
    const volume = this.blockVolumes.get(id);
    if (!volume || volume.zone !== zone || (project && volume.projectId !== project)) throw notFound('volume', id);
    return volume;
  }

  /** Starts a power action and records the task the API answers with. */
  startAction(server: ServerRecord, action: 'poweron' | 'poweroff' | 'reboot' | 'terminate' | 'stop_in_place', now: number): TaskRecord {
    const taskId = this.ids.uuid();
    const completesAt = beginAction(server, action, now, this.timings, taskId);
    const task: TaskRecord = {
      id: taskId,
      description: `server_${action}`,
      serverId: server.id,
      zone: server.zone,
      startedAt: now,
      completesAt,
    };
    this.tasks.set(taskId, task);
    return task;
  }
}
