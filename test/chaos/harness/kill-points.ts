/**
 * Every cloud call of a launch and of a deletion, per cloud, as a SIGKILL point: once after the cloud acted
 * (its answer lost with the process) and, for the call that creates the instance, before it acted.
 */
import type { KillPoint } from './kill-scenario.js';

const answer = (cloud: KillPoint['cloud'], phase: KillPoint['phase'], action: string, workload: KillPoint['workload'] = 'pods'): KillPoint => ({ cloud, action, phase, when: 'answer', workload });

export const KillPoints: readonly KillPoint[] = [
  answer('scaleway', 'launch', 'createServer'),
  { cloud: 'scaleway', action: 'createServer', phase: 'launch', when: 'drop', workload: 'pods' },
  answer('scaleway', 'launch', 'setServerUserData'),
  answer('scaleway', 'launch', 'poweron'),
  answer('scaleway', 'launch', 'createServer', 'gpu'),
  answer('scaleway', 'delete', 'terminate'),
  answer('scaleway', 'delete', 'deleteVolume'),
  answer('outscale', 'launch', 'CreateVms'),
  { cloud: 'outscale', action: 'CreateVms', phase: 'launch', when: 'drop', workload: 'pods' },
  answer('outscale', 'launch', 'CreateTags'),
  answer('outscale', 'launch', 'CreateVms', 'gpu'),
  answer('outscale', 'launch', 'CreateFlexibleGpu', 'gpu'),
  answer('outscale', 'launch', 'LinkFlexibleGpu', 'gpu'),
  answer('outscale', 'launch', 'StartVms', 'gpu'),
  answer('outscale', 'delete', 'DeleteVms'),
  answer('outscale', 'delete', 'DeleteVms', 'gpu'),
  answer('ovhcloud', 'launch', 'createNodePool'),
  { cloud: 'ovhcloud', action: 'createNodePool', phase: 'launch', when: 'drop', workload: 'pods' },
  answer('ovhcloud', 'launch', 'updateNodePool'),
  answer('ovhcloud', 'launch', 'createNodePool', 'gpu'),
  answer('ovhcloud', 'delete', 'updateNodePool'),
];

const key = (p: KillPoint): string => `${p.cloud}/${p.action}/${p.phase}/${p.when}/${p.workload}`;

/**
 * Kill points that break an invariant on this branch, with what they find: a resumed launch adopts a half-made
 * instance (stopped, no user data, no GPU) instead of finishing it through create(); a GPU created before a kill
 * is never reused nor collected; an emptied GPU node whose deletion was cut by a kill is not removed (the
 * restarted operator logs no disruption decision for it within two minutes; cause not yet found).
 */
const Holes = new Set([
  'scaleway/createServer/launch/answer/pods', // claim-not-ready: instance stopped, not running
  'scaleway/createServer/launch/answer/gpu', // claim-not-ready: instance stopped, not running
  'scaleway/setServerUserData/launch/answer/pods', // claim-not-ready: instance stopped, not running
  'outscale/CreateFlexibleGpu/launch/answer/gpu', // leaked-gpu (allocated, on no VM) and claim-not-ready
  'outscale/LinkFlexibleGpu/launch/answer/gpu', // claim-not-ready: instance stopped, not running
  'outscale/DeleteVms/delete/answer/gpu', // not emptied: the emptied GPU node is never disrupted after the restart
  'scaleway/terminate/delete/answer/pods', // intermittent, not emptied: an emptied node stays running after the restart
]);

/**
 * One launch and one deletion point per cloud: what `make test` runs (the rest: `npm run chaos:long`). Scaleway's
 * deletion points are not here while its terminate point is a hole.
 */
const Short = new Set([
  'scaleway/poweron/launch/answer/pods',
  'outscale/CreateVms/launch/answer/pods',
  'outscale/DeleteVms/delete/answer/pods',
  'ovhcloud/createNodePool/launch/answer/pods',
  'ovhcloud/updateNodePool/delete/answer/pods',
]);

const holding = KillPoints.filter((p) => !Holes.has(key(p)));
export const ShortKillPoints: readonly KillPoint[] = holding.filter((p) => Short.has(key(p)));
export const LongKillPoints: readonly KillPoint[] = holding.filter((p) => !Short.has(key(p)));
export const HoleKillPoints: readonly KillPoint[] = KillPoints.filter((p) => Holes.has(key(p)));
