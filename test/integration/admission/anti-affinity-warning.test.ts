// An OVH NodePool on an anti-affinity class, applied with the real kubectl to the simulated cluster with the
// service running against the OVH emulator: the warning kubectl prints says what then happens — 7 pods that
// each need a node of one flavor and zone run on 7 nodes, 5 in the first MKS pool and 2 in a second (`-p2`).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects, readManifest } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';

let env: DemoEnvironment;

const userYaml = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: spread
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: anti-affinity }
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: In, values: [b3-8] }
        - { key: topology.kubernetes.io/zone, operator: In, values: [eu-west-par-a] }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: spread
  namespace: default
spec:
  replicas: 7
  selector: { matchLabels: { app: spread } }
  template:
    metadata: { labels: { app: spread } }
    spec:
      nodeSelector: { karpenter.sh/nodepool: spread }
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app: spread } } }
      containers:
        - { name: app, image: app, resources: { requests: { cpu: 500m, memory: 256Mi } } }
`;

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 900): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
  await applyObjects(env.cluster.kubeConfig, readManifest('manifests/examples/ovhcloud/nodeclass.yaml'));
});

afterAll(async () => {
  await env?.close();
});

describe('anti-affinity NodePool warning', () => {
  it('says 5 nodes per MKS pool and another pool past that, which is what 7 pods then get', { timeout: 150_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'aa-')), 'spread.yaml');
    writeFileSync(file, userYaml);
    const applied = await promisify(execFile)(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', env.kubeconfigPath ?? '', 'apply', '-f', file],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    const warning = applied.stderr.split('\n').find((l) => l.includes('NodePool "spread"') && l.includes('anti-affinity')) ?? '';
    // Whole (kube-apiserver cuts a warning past 256 characters): 5 per MKS pool, then another pool.
    expect(warning).toMatch(/^Warning: NodePool "spread": anti-affinity keeps apart only the nodes of one MKS pool \(at most 5\)/);
    expect(warning).toContain('opens another pool (-p2');
    expect(warning).toMatch(/set spec\.limits\.nodes to 5 to keep one pool per flavor and zone$/);
    expect(warning).not.toContain('caps it at 5');

    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    await eventually(async () => {
      const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=spread' })).items;
      return pods.length === 7 && pods.every((p) => p.status?.phase === 'Running') ? pods : undefined;
    }, '7 spread pods running');
    const pools = (env.ovhcloud?.state().pools ?? [])
      .filter((p) => p.antiAffinity)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => [p.name, p.desiredNodes]);
    expect(pools).toEqual([
      ['karpenter-b3-8-eu-west-par-a-aa', 5],
      ['karpenter-b3-8-eu-west-par-a-aa-p2', 2],
    ]);
  });
});
