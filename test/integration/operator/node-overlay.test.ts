// NodeOverlays on the simulated cluster with the operator as `karpenter-eu run --feature-gates NodeOverlay=true`
// builds it, the Scaleway emulator and the real kubectl: an overlay saying an L4 is shared four ways (the NVIDIA
// device plugin's time-slicing, simulated on the kubelet) makes one L4-1-24G node run four one-GPU pods; kubectl
// reads the overlay and its conditions back; the webhook refuses an overlay conflicting with it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { nodeClassesFor, nodePoolsFor } from '../../../src/testbed/demo/demo-manifests.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', env.kubeconfigPath ?? '', ...args],
      { encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const timeSlicing = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: l4-time-slicing
spec:
  weight: 10
  requirements:
    - key: node.kubernetes.io/instance-type
      operator: In
      values: ["L4-1-24G"]
  capacity:
    nvidia.com/gpu: 4
`;

function gpuPod(i: number): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `shared-l4-${i}`, namespace: 'default' },
    spec: {
      nodeSelector: { 'node.kubernetes.io/instance-type': 'L4-1-24G' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [
        {
          name: 'cuda',
          image: 'nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04',
          resources: { requests: { cpu: '500m', memory: '1Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
  };
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
    featureGates: 'NodeOverlay=true',
    // NVIDIA's device plugin with time-slicing `replicas: 4` on the L4 flavor: what the overlay tells the simulation.
    devicePlugins: (instance) => (instance.instanceType === 'L4-1-24G' ? { 'nvidia.com/gpu': '4' } : undefined),
  });
  dir = mkdtempSync(join(tmpdir(), 'node-overlay-'));
  await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor('scaleway', env), ...nodePoolsFor('scaleway')]);
  writeFileSync(join(dir, 'overlay.yaml'), timeSlicing);
  const applied = await kubectl('apply', '-f', join(dir, 'overlay.yaml'));
  expect(applied.stderr).toBe('');
  expect(applied.stdout).toContain('nodeoverlay.karpenter.sh/l4-time-slicing created');
});

afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('NodeOverlay with the operator on the simulated cluster', () => {
  it('shows the overlay Ready through kubectl get, with its weight in -o wide and its conditions in -o yaml', async () => {
    const table = await eventually(async () => {
      const got = await kubectl('get', 'nodeoverlays', '-o', 'wide');
      return /l4-time-slicing\s+True\s+\S+\s+10/.test(got.stdout) ? got.stdout : undefined;
    }, 'overlay Ready=True in kubectl get');
    expect(table).toMatch(/^NAME\s+READY\s+AGE\s+WEIGHT/);
    const yaml = await kubectl(
      'get',
      'overlays',
      'l4-time-slicing',
      '-o',
      'jsonpath={.status.conditions[*].type}={.status.conditions[*].status}',
    );
    expect(yaml.stdout).toBe('ValidationSucceeded Ready=True True');
  });

  it('refuses an overlay of the same weight setting the same resource of the L4, naming both, the field and the fix', async () => {
    writeFileSync(
      join(dir, 'conflict.yaml'),
      timeSlicing.replace('l4-time-slicing', 'l4-mig').replace('nvidia.com/gpu: 4', 'nvidia.com/gpu: 7'),
    );
    const refused = await kubectl('apply', '-f', join(dir, 'conflict.yaml'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('denied the request');
    expect(refused.stderr).toContain('spec.capacity');
    expect(refused.stderr).toContain('NodeOverlay l4-time-slicing');
    expect(refused.stderr).toContain('NodeOverlay l4-mig');
    expect(refused.stderr).toContain('spec.weight');
  });

  it('packs four one-GPU pods on one L4-1-24G node', async () => {
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    for (let i = 0; i < 4; i++) await core.createNamespacedPod({ namespace: 'default', body: gpuPod(i) });
    const nodes = await eventually(
      async () => {
        const pods = await Promise.all([0, 1, 2, 3].map((i) => core.readNamespacedPod({ name: `shared-l4-${i}`, namespace: 'default' })));
        return pods.every((p) => p.status?.phase === 'Running') ? pods.map((p) => p.spec?.nodeName) : undefined;
      },
      'four GPU pods running',
      90_000,
    );
    expect(new Set(nodes).size).toBe(1);
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    type Claims = { items: { metadata: { labels?: Record<string, string> } }[] };
    const claims = (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as Claims;
    const l4 = claims.items.filter((c) => c.metadata.labels?.['node.kubernetes.io/instance-type'] === 'L4-1-24G');
    expect(l4).toHaveLength(1);
  }, 120_000);
});
