// A ScalewayNodeClass whose zones do not sell the GPU a NodePool on it asks for by name is Ready False with
// reason GpuNotOffered, naming the NodePool, the GPU and what its zones offer — read from the instance types
// the provider lists for that NodePool — on the simulated cluster with the Scaleway emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { nodeClassesFor } from '../../../src/testbed/demo/demo-manifests.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
});

afterAll(async () => {
  await env?.close();
});

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

describe('NodeClass Ready and the GPUs its NodePools ask for', () => {
  it('is GpuNotOffered when no zone of the class sells the GPU a NodePool asks for', async () => {
    const [demo] = nodeClassesFor('scaleway', env) as { spec: Record<string, unknown> }[];
    const nodeClass = { ...demo, metadata: { name: 'par1-only' }, spec: { ...demo?.spec, zones: ['fr-par-1'] } };
    const pool = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'wants-l4' },
      spec: {
        limits: { cpu: '100' },
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'par1-only' },
            requirements: [{ key: 'karpenter-eu.io/instance-gpu-name', operator: 'In', values: ['l4'] }],
          },
        },
      },
    };
    await applyObjects(env.cluster.kubeConfig, [nodeClass, pool] as unknown as KubernetesObject[]);
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const ready = await eventually(async () => {
      const object = (await custom.getClusterCustomObject({
        group: 'karpenter.scaleway.sh',
        version: 'v1alpha1',
        plural: 'scalewaynodeclasses',
        name: 'par1-only',
      })) as { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } };
      const condition = object.status?.conditions?.find((c) => c.type === 'Ready');
      return condition?.reason === 'GpuNotOffered' ? condition : undefined;
    }, 'GpuNotOffered');
    expect(ready.status).toBe('False');
    expect(ready.message).toContain(
      'NodePool wants-l4 asks for GPU "l4", which no zone of this class offers; GPUs its zones offer: p100 (fr-par-1)',
    );
  });
});
