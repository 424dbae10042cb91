/**
 * The `--set` line the demo installs the chart with: each guide's own values for its cloud (OVHcloud's project,
 * MKS cluster and region; the cloud switched on for Scaleway and Outscale), the emulators as the clouds' endpoints
 * (the chart's ovh.endpoint, scaleway.endpoint, outscale.endpoint), one replica tolerating the cluster's system node, and
 * the demo's short windows.
 */
import type { DemoTimings, Emulators } from '../environment.js';
import { systemTolerationSet } from './system-node.js';

export function demoSetLine(
  emulators: Emulators,
  timings: DemoTimings,
  ovhCluster: { serviceName: string; kubeId: string; region: string },
): string[] {
  const set: string[] = [];
  if (emulators.ovhcloud)
    set.push(
      `ovh.serviceName=${ovhCluster.serviceName}`,
      `ovh.kubeId=${ovhCluster.kubeId}`,
      `ovh.region=${ovhCluster.region}`,
      `ovh.endpoint=${emulators.ovhcloud.url}`,
    );
  // Without OVHcloud no default can name the cluster (the Scaleway and Outscale guides set it).
  else set.push('controller.clusterName=karpenter-eu-demo');
  if (emulators.scaleway) set.push('cloud.scaleway.enabled=true', 'scaleway.region=fr-par', `scaleway.endpoint=${emulators.scaleway.url}`);
  if (emulators.outscale)
    set.push('cloud.outscale.enabled=true', `outscale.region=${emulators.outscale.region}`, `outscale.endpoint=${emulators.outscale.url}`);
  // One replica, the one the demo runs, on the cluster's own node (system-node.ts).
  set.push('replicas=1', ...systemTolerationSet);
  set.push(
    `controller.batchIdleDuration=${timings.batchIdle}`,
    `controller.batchMaxDuration=${timings.batchMax}`,
    `controller.disruptionInterval=${timings.disruptionInterval}`,
    `controller.gcInterval=${timings.gcInterval}`,
    'controller.logLevel=warn',
    'controller.leaderElection.leaseDuration=3s',
    'controller.leaderElection.renewDeadline=2s',
    'controller.leaderElection.retryPeriod=500ms',
    'controller.extraEnv[0].name=DISRUPTION_VALIDATION_DELAY',
    `controller.extraEnv[0].value=${timings.validationDelay}`,
    'controller.extraEnv[1].name=DRIFT_CHECK_INTERVAL',
    `controller.extraEnv[1].value=${timings.driftCheckInterval}`,
  );
  return set;
}
