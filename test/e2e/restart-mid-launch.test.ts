// A process that dies right after Scaleway createServer leaves a stopped server with no user data. The
// restarted operator must finish that launch — user data, power on — instead of recording the stopped server
// as launched and waiting out the registration timeout while the pods stay Pending.
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { startDemoEnvironment } from '../../src/testbed/demo/environment.js';
import { nodeClassesFor, nodePoolsFor } from '../../src/testbed/demo/demo-manifests.js';
import { applyObjects } from '../../src/testbed/demo/install.js';
import { haltAfter } from '../../src/testbed/emulators/faults.js';
import type { ScalewayEmulator } from '../../src/testbed/emulators/scaleway/index.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { eventually } from './demo-harness.js';

type Claim = { metadata: { name: string }; status?: { providerID?: string } };

describe('the controller on scaleway, killed right after createServer', () => {
  it(
    'the restarted operator finishes the stopped server (user data, power on) and records it; the pod runs',
    { timeout: 120_000 },
    async () => {
      const env = await startDemoEnvironment({
        clouds: ['scaleway'],
        clock: new SystemClock(),
        logger: silentLogger,
        controllers: defaultControllers,
      });
      const scaleway = env.scaleway as ScalewayEmulator;
      try {
        await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor('scaleway', env), ...nodePoolsFor('scaleway')]);
        const halt = scaleway.faults.add(haltAfter(1, { action: 'createServer' }));
        const labels = { app: 'web' };
        const web: V1Deployment = {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'default' },
          spec: {
            replicas: 1,
            selector: { matchLabels: labels },
            template: {
              metadata: { labels },
              spec: {
                nodeSelector: { 'karpenter-eu.io/cloud': 'scaleway' },
                containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
              },
            },
          },
        };
        await env.cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: web });

        const stopped = await eventually('a server created', () => scaleway.state().instances[0]);
        expect(stopped.state).toBe('stopped');
        expect(stopped.userData).toBeUndefined();
        await env.restartOperator();
        scaleway.faults.remove(halt);

        const running = async () => {
          const pods = (
            await env.cluster.kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })
          ).items;
          return pods.length === 1 && pods.every((p) => p.status?.phase === 'Running');
        };
        // Well within the 15-minute registration timeout that an adopted stopped server would wait out.
        await eventually('web running after the restart', running, 60_000);
        // The server the dead process created is the one its NodeClaim records, finished: user data, powered on.
        const resumed = await eventually('the stopped server finished', () =>
          scaleway.state().instances.find((i) => i.id === stopped.id && i.state === 'running'),
        );
        expect(resumed.userData).toContain(resumed.name);
        const claims = (
          (await env.cluster.kubeConfig
            .makeApiClient(CustomObjectsApi)
            .listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as { items: Claim[] }
        ).items;
        expect(claims.find((c) => c.metadata.name === resumed.name)?.status?.providerID).toBe(resumed.providerID);
        // One server per NodeClaim, every one of them running.
        const servers = scaleway.state().instances;
        expect(new Set(servers.map((i) => i.name)).size).toBe(servers.length);
        expect(servers.map((i) => i.state)).toEqual(servers.map(() => 'running'));
      } finally {
        await env.close();
      }
    },
  );
});
