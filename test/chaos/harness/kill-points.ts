/**
 * Every cloud call of a launch and of a deletion, per cloud, as a SIGKILL point: once after the cloud acted
 * (its answer lost with the process) and, for the call that creates the instance, before it acted.
 */
import type { KillPoint } from './kill-scenario.js';

const answer = (
  cloud: KillPoint['cloud'],
  phase: KillPoint['phase'],
  action: string,
  workload: KillPoint['workload'] = 'pods',
): KillPoint => ({ cloud, action, phase, when: 'answer', workload });

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
 * Kill points that break an invariant, each with the violation it finds (none today: every point of the matrix
 * holds). A point goes here when a change breaks it and comes out with its fix.
 */
const Holes = new Set<string>([]);

/**
 * What `make test` runs (the rest: `npm run chaos:long`): one point per cloud, launches and a deletion among them.
 * Each point is a child process with its own test bed: more side by side starve one another on a small machine.
 */
const Short = new Set([
  'scaleway/poweron/launch/answer/pods',
  'outscale/DeleteVms/delete/answer/pods',
  'ovhcloud/createNodePool/launch/answer/pods',
]);

const holding = KillPoints.filter((p) => !Holes.has(key(p)));
export const ShortKillPoints: readonly KillPoint[] = holding.filter((p) => Short.has(key(p)));
export const LongKillPoints: readonly KillPoint[] = holding.filter((p) => !Short.has(key(p)));
export const HoleKillPoints: readonly KillPoint[] = KillPoints.filter((p) => Holes.has(key(p)));
