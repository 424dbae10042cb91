/** Block API (`/block/v1alpha1/zones/{zone}/volumes`): the SBS volumes a terminate leaves behind. */
import { preconditionFailed } from './api-error.js';
import { callerOf, type EmulatorContext, type RequestContext } from './context.js';
import type { Reply } from './http-io.js';
import { paginate } from './pagination.js';
import { blockVolumeWire } from './wire.js';

export function getBlockVolume(emu: EmulatorContext, req: RequestContext): Reply {
  const volume = emu.store.getBlockVolume(req.zone, req.params.volumeId ?? '', req.now, callerOf(req).projectId);
  return { status: 200, json: blockVolumeWire(volume) };
}

export function deleteBlockVolume(emu: EmulatorContext, req: RequestContext): Reply {
  const volume = emu.store.getBlockVolume(req.zone, req.params.volumeId ?? '', req.now, callerOf(req).projectId);
  if (volume.attachedTo) {
    throw preconditionFailed(
      'resource_still_in_use',
      `volume ${volume.id} is attached to server ${volume.attachedTo.serverId}; detach it or terminate the server first`,
    );
  }
  emu.store.blockVolumes.delete(volume.id);
  return { status: 204 };
}

export function listBlockVolumes(emu: EmulatorContext, req: RequestContext): Reply {
  emu.store.settle(req.now);
  const caller = callerOf(req);
  const serverId = req.query.get('product_resource_id');
  const name = req.query.get('name');
  const all = [...emu.store.blockVolumes.values()]
    .filter((v) => v.zone === req.zone && v.projectId === caller.projectId)
    .filter((v) => !serverId || v.attachedTo?.serverId === serverId)
    .filter((v) => !name || v.name.includes(name))
    .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  const page = paginate(all, req.query, req.path);
  return { status: 200, json: { volumes: page.items.map(blockVolumeWire), total_count: all.length }, headers: page.headers };
}
