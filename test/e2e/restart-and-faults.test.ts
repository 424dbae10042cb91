// The controller per cloud against the simulated cluster and that cloud's emulator: stopped while a launch is in
// flight and replaced by a new process (no second instance for any NodeClaim, no leaked instance once converged),
// then the cloud's reads failing for longer than a garbage-collection period (nothing deleted because a List
// failed), then healed. (A launch whose reply is lost and adopted after a crash is covered per provider by the
// wire tests and for the lifecycle by test/integration/lifecycle.)
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../../src/testbed/emulators/faults.js';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { startOperator, type RunningOperator } from '../../src/operator/operator.js';
import { parseOperatorOptions } from '../../src/operator/options.js';
import { type DemoCloud, type DemoEnvironment, startDemoEnvironment } from '../../src/testbed/demo/environment.js';
import { applyObjects } from '../../src/testbed/demo/install.js';
import { nodeClassesFor, nodePoolsFor } from '../../src/testbed/demo/demo-manifests.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { eventually } from './demo-harness.js';
import { createLoopbackCertificate } from '../../src/util/tls.js';

type Claim = {
  metadata: { name: string; annotations?: Record<string, string>; deletionTimestamp?: string };
  status?: { providerID?: string; nodeName?: string };
};

/** Instances the emulator still runs (being deleted does not count). */
function liveInstances(env: DemoEnvironment, cloud: DemoCloud): number {
  if (cloud === 'scaleway') return env.scaleway?.state().instances.length ?? 0;
  if (cloud === 'outscale')
    return env.outscale?.state().instances.filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down').length ?? 0;
  return env.ovhcloud?.state().instances.filter((i) => i.state !== 'DELETING' && i.state !== 'DELETED').length ?? 0;
}

/** Every read of the cloud fails with a 500. */
function readFault(cloud: DemoCloud): FaultRule {
  return cloud === 'outscale'
    ? { match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 500 } }
    : { match: { method: 'GET' }, fault: { kind: 'server-error', status: 500 } };
}

function faultsOf(env: DemoEnvironment, cloud: DemoCloud) {
  const emulator = cloud === 'scaleway' ? env.scaleway : cloud === 'outscale' ? env.outscale : env.ovhcloud;
  if (!emulator) throw new Error(`no ${cloud} emulator`);
  return emulator.faults;
}

async function restart(env: DemoEnvironment): Promise<RunningOperator> {
  await env.operator.stop();
  const args = [
    '--cluster-name=karpenter-eu-demo',
    '--bind-address=127.0.0.1',
    '--webhook-port=0',
    '--extender-port=0',
    '--metrics-port=0',
    '--batch-idle-duration=300ms',
    '--batch-max-duration=2s',
    '--disruption-interval=1s',
    '--gc-interval=2s',
    '--leader-election-namespace=karpenter',
    '--leader-election-identity=restarted',
    '--leader-election-lease-duration=3s',
    '--leader-election-renew-deadline=2s',
    '--leader-election-retry-period=200ms',
    '--log-level=error',
  ];
  return startOperator({
    config: parseOperatorOptions(args, env.operatorEnv),
    kubeConfig: env.cluster.kubeConfig,
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    webhookTls: await createLoopbackCertificate(),
  });
}

describe.each(['scaleway', 'outscale', 'ovhcloud'] as const)('the controller on %s', (cloud) => {
  it('survives a restart mid-launch and a failing List without a duplicate, a leak or a deletion', { timeout: 150_000 }, async () => {
    const env = await startDemoEnvironment({
      clouds: [cloud],
      clock: new SystemClock(),
      logger: silentLogger,
      controllers: defaultControllers,
    });
    let second: RunningOperator | undefined;
    try {
      await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor(cloud, env), ...nodePoolsFor(cloud)]);
      const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
      const claims = async (): Promise<Claim[]> =>
        ((await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as { items: Claim[] })
          .items;
      const labels = { app: 'web' };
      const web: V1Deployment = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              nodeSelector: { 'karpenter-eu.io/cloud': cloud },
              containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
            },
          },
        },
      };
      await env.cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: web });

      // Stopped once a create has been asked of the cloud, before the NodeClaim records what it launched.
      await eventually('a launch in flight', async () =>
        (await claims()).some((c) => c.metadata.annotations?.['karpenter-eu.io/launch-requested'] !== undefined),
      );
      second = await restart(env);
      const running = async () => {
        const pods = (
          await env.cluster.kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })
        ).items;
        return pods.length === 2 && pods.every((p) => p.status?.phase === 'Running');
      };
      await eventually('web running after the restart', running, 90_000);
      const settled = await eventually(
        'every NodeClaim launched',
        async () => {
          const list = (await claims()).filter((c) => !c.metadata.deletionTimestamp);
          return list.every((c) => c.status?.providerID) && liveInstances(env, cloud) === list.length && list;
        },
        60_000,
      );
      const ids = settled.map((c) => c.status?.providerID);
      expect(new Set(ids).size, JSON.stringify(ids)).toBe(ids.length);

      // The cloud cannot be read for longer than a GC period: nothing is deleted.
      const before = settled.map((c) => c.metadata.name).sort();
      const instances = liveInstances(env, cloud);
      const faults = faultsOf(env, cloud);
      const rule = faults.add(readFault(cloud));
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const during = (await claims())
        .filter((c) => !c.metadata.deletionTimestamp)
        .map((c) => c.metadata.name)
        .sort();
      expect(during).toEqual(before);
      expect(liveInstances(env, cloud)).toBe(instances);
      faults.remove(rule);
      await eventually('web still running once healed', running, 30_000);
    } finally {
      await second?.stop();
      await env.close();
    }
  });
});
