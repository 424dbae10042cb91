/**
 * Guide 002 (the OVHcloud provider's README) typed into the demo cluster with the real kubectl 1.31: its Secret made
 * with `kubectl create secret generic` (no label) and its OVHNodeClass without `kubeId` ("Optional: auto-detected")
 * and without `region`. The class is admitted as written, and the MKS cluster is detected, not required.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let env: DemoEnvironment;
let dir: string;

function kubectl(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', join(dir, 'kubeconfig'), ...args],
      { encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

/** Guide 002's "Create an OVHNodeClass", its placeholders filled and its optional kubeId and region left out. */
const nodeClass = `apiVersion: karpenter.ovhcloud.sh/v1alpha1
kind: OVHNodeClass
metadata:
  name: guide-002
spec:
  serviceName: "0123456789abcdef0123456789abcdef"       # OVHcloud Public Cloud project ID
  credentialsSecretRef:
    name: ovh-credentials
    namespace: karpenter
  monthlyBilled: false                 # Hourly billing (gen2 instances only: b2, c2, d2, r2)
  antiAffinity: false                  # Spread across hypervisors
`;

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  dir = mkdtempSync(join(tmpdir(), 'guide-002-'));
  writeFileSync(join(dir, 'kubeconfig'), env.cluster.kubeConfig.exportConfig());
}, 120_000);

afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A real MKS cluster always has a node (Karpenter itself runs on one); the demo cluster starts with none, so the
 * first is launched from the shipped example NodeClass and NodePools, as the demo's scenario does.
 */
async function firstMksNode(): Promise<void> {
  const examples = join(repoRoot, 'manifests', 'examples', 'ovhcloud');
  const applied = await kubectl(['apply', '-f', join(examples, 'nodeclass.yaml'), '-f', join(examples, 'nodepools.yaml')]);
  expect(applied.code, applied.stderr).toBe(0);
  expect((await kubectl(['create', 'deployment', 'first', '--image=registry.k8s.io/pause:3.9'])).stderr).toBe('');
  await eventually(async () => {
    const ids = await kubectl(['get', 'nodes', '-o', 'jsonpath={.items[*].spec.providerID}']);
    return ids.stdout.includes('openstack:///') ? true : undefined;
  }, 'a node of the MKS cluster');
}

describe("guide 002's OVHNodeClass without kubeId", () => {
  it('is admitted as written and becomes Ready with the MKS cluster and region detected', async () => {
    await firstMksNode();
    const secret = await kubectl([
      'create',
      'secret',
      'generic',
      'ovh-credentials',
      '-n',
      'karpenter',
      '--from-literal=applicationKey=YOUR_APP_KEY',
      '--from-literal=applicationSecret=YOUR_APP_SECRET',
      '--from-literal=consumerKey=YOUR_CONSUMER_KEY',
    ]);
    expect(secret.stderr).toBe('');
    const applied = await kubectl(['apply', '-f', '-'], nodeClass);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toBe('ovhnodeclass.karpenter.ovhcloud.sh/guide-002 created');

    type Status = { kubeId?: string; region?: string; conditions?: Array<{ type: string; status: string; message: string }> };
    let status: Status = {};
    await eventually(
      async () => {
        const got = await kubectl(['get', 'ovhnodeclass', 'guide-002', '-o', 'jsonpath={.status}']);
        status = got.stdout ? (JSON.parse(got.stdout) as Status) : {};
        return status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
      },
      `guide-002 Ready (last status ${JSON.stringify(status)})`,
    ).catch(() => undefined);
    // The demo's OVHcloud project has one MKS cluster, the one whose nodes are this cluster's.
    expect(status.kubeId).toBe('6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03');
    expect(status.region).toBe('EU-WEST-PAR');
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    expect(ready?.status).toBe('True');
    expect(ready?.message).toContain('MKS cluster 6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03 (EU-WEST-PAR) detected');
    const spec = await kubectl(['get', 'ovhnodeclass', 'guide-002', '-o', 'jsonpath={.spec}']);
    expect(Object.keys(JSON.parse(spec.stdout) as object)).not.toContain('kubeId');
  }, 120_000);
});
