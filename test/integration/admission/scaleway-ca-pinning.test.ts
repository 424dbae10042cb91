// A Scaleway join without CA pinning, applied with the real kubectl to the simulated cluster with the service
// running against the Scaleway emulator: kubectl prints a warning saying kubeadm will skip CA verification and
// how to pin it, the class carries a JoinCAPinned=False condition saying the same, and the server launched for
// it boots a JoinConfiguration with unsafeSkipCAVerification — what was said. Pinned with caCertHashes, no
// warning, JoinCAPinned=True, and the server's JoinConfiguration carries the hash instead.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';

let env: DemoEnvironment;
const hash = `sha256:${'0123456789abcdef'.repeat(4)}`;

function userYaml(name: string, pin: string): string {
  return `
apiVersion: karpenter.scaleway.sh/v1alpha1
kind: ScalewayNodeClass
metadata:
  name: ${name}
spec:
  projectId: 5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c
  zones: ["fr-par-1"]
  image: ubuntu_jammy
  credentialsSecretRef: { name: scaleway-nodeclass-credentials, namespace: karpenter }
  join:
    apiServerEndpoint: https://k8s.example.internal:6443
    tokenSecretRef: { name: bootstrap-token, namespace: karpenter, key: token }
${pin}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.scaleway.sh, kind: ScalewayNodeClass, name: ${name} }
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: In, values: [DEV1-M] }
---
apiVersion: v1
kind: Pod
metadata:
  name: on-${name}
  namespace: default
spec:
  nodeSelector: { karpenter.sh/nodepool: ${name} }
  containers:
    - { name: app, image: app, resources: { requests: { cpu: 500m, memory: 256Mi } } }
`;
}

async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, attempts = 600): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

async function kubectlApply(yaml: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'ca-')), 'class.yaml');
  writeFileSync(file, yaml);
  const out = await promisify(execFile)(ensureRealBinaries().kubectl, ['--kubeconfig', env.kubeconfigPath ?? '', 'apply', '-f', file], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return out.stderr;
}

async function condition(name: string): Promise<{ status: string; reason?: string; message?: string } | undefined> {
  const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  const object = (await custom.getClusterCustomObject({
    group: 'karpenter.scaleway.sh',
    version: 'v1alpha1',
    plural: 'scalewaynodeclasses',
    name,
  })) as { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } };
  return object.status?.conditions?.find((c) => c.type === 'JoinCAPinned');
}

/** The kubeadm JoinConfiguration the server launched for the NodePool boots with. */
async function joinConfigurationOf(nodePool: string): Promise<{ discovery: { bootstrapToken?: Record<string, unknown> } }> {
  const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  const providerID = await eventually(async () => {
    const claims = (
      (await custom.listClusterCustomObject({
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodeclaims',
        labelSelector: `karpenter.sh/nodepool=${nodePool}`,
      })) as { items: { status?: { providerID?: string } }[] }
    ).items;
    return claims.find((c) => c.status?.providerID)?.status?.providerID;
  }, `a server launched for ${nodePool}`);
  const server = env.scaleway?.state().instances.find((s) => s.providerID === providerID);
  const cloudConfig = parse(server?.userData ?? '') as { write_files: { path: string; content: string }[] };
  const file = cloudConfig.write_files.find((f) => f.path.endsWith('join.yaml'));
  return parse(file?.content ?? '') as { discovery: { bootstrapToken?: Record<string, unknown> } };
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
});

afterAll(async () => {
  await env?.close();
});

describe('Scaleway join CA pinning', () => {
  it(
    'without caBundle or caCertHashes: a warning and a condition saying how to pin it, and the node skips CA verification',
    { timeout: 120_000 },
    async () => {
      const stderr = await kubectlApply(userYaml('unpinned', ''));
      const warning = stderr.split('\n').find((l) => l.includes('unsafeSkipCAVerification')) ?? '';
      // Whole (kube-apiserver cuts a warning past 256 characters), with both ways to pin the CA.
      expect(warning).toMatch(/^Warning: spec\.join: no caBundle or caCertHashes, so kubeadm joins with unsafeSkipCAVerification/);
      expect(warning).toContain('spec.join.caCertHashes: ["sha256:<hex>"]');
      expect(warning).toMatch(/or spec\.join\.caBundle$/);
      const said = await eventually(() => condition('unpinned'), 'JoinCAPinned written');
      expect(said).toMatchObject({ status: 'False', reason: 'UnsafeSkipCAVerification' });
      expect(said.message?.startsWith(warning.replace(/^Warning: /, ''))).toBe(true);
      expect(said.message).toContain('kubeadm token create --print-join-command');
      const joined = await joinConfigurationOf('unpinned');
      expect(joined.discovery.bootstrapToken).toMatchObject({ unsafeSkipCAVerification: true });
    },
  );

  it('with caCertHashes: no warning, JoinCAPinned=True, and kubeadm verifies the CA against the hash', { timeout: 120_000 }, async () => {
    const stderr = await kubectlApply(userYaml('pinned', `    caCertHashes: ["${hash}"]`));
    expect(stderr).not.toContain('unsafeSkipCAVerification');
    const said = await eventually(() => condition('pinned'), 'JoinCAPinned written');
    expect(said).toMatchObject({ status: 'True', reason: 'CACertHashes' });
    const joined = await joinConfigurationOf('pinned');
    expect(joined.discovery.bootstrapToken).toEqual({
      apiServerEndpoint: 'k8s.example.internal:6443',
      token: 'abcdef.0123456789abcdef',
      caCertHashes: [hash],
    });
  });
});
