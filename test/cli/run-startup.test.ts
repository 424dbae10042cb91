/**
 * `karpenter-eu run` against the simulated cluster and the Scaleway emulator: once its servers listen it says
 * so in one line with the version, the API server, the clouds and their endpoints, the listeners and the
 * leader-election identity; SIGTERM ends it with status 0.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { VERSION } from '../../src/cli/version.js';
import { writeKubeconfig } from '../../src/testbed/cluster/apiserver/kubeconfig.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/testbed/cluster/index.js';
import { installCrds } from '../../src/testbed/demo/install.js';
import { startScalewayEmulator, type ScalewayEmulator } from '../../src/testbed/emulators/scaleway/index.js';
import { createLoopbackCertificate } from '../../src/util/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'run-startup-'));
let cluster: SimulatedCluster;
let scaleway: ScalewayEmulator;
let kubeconfig: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  cluster = await startSimulatedCluster();
  await installCrds(cluster.kubeConfig);
  scaleway = await startScalewayEmulator({});
  kubeconfig = await writeKubeconfig(cluster.kubeConfig.getCurrentCluster()?.server ?? '');
  const certificate = await createLoopbackCertificate();
  writeFileSync(join(dir, 'tls.crt'), certificate.certPem);
  writeFileSync(join(dir, 'tls.key'), certificate.keyPem);
}, 60_000);

afterAll(async () => {
  await kubeconfig?.remove();
  await scaleway?.close();
  await cluster?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('run start-up line', () => {
  it('logs version, API server, clouds with endpoints, listeners and leader-election identity once serving', async () => {
    let stdout = '';
    let stderr = '';
    const env = {
      SCW_ACCESS_KEY: scaleway.credentials.accessKey,
      SCW_SECRET_KEY: scaleway.credentials.secretKey,
      SCW_DEFAULT_PROJECT_ID: scaleway.credentials.projectId,
      SCW_API_URL: scaleway.url,
      HOSTNAME: 'karpenter-eu-0',
      CLUSTER_NAME: 'run-startup',
    };
    const argv = [
      'run',
      '--kubeconfig',
      kubeconfig.path,
      '--webhook-cert-file',
      join(dir, 'tls.crt'),
      '--webhook-key-file',
      join(dir, 'tls.key'),
      '--webhook-port',
      '0',
      '--extender-port',
      '0',
      '--metrics-port',
      '0',
      '--bind-address',
      '127.0.0.1',
      '--leader-election-namespace',
      'default',
    ];
    const before = new Set(process.listeners('SIGTERM'));
    const running = main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
    await until(() => stdout.includes('"message":"serving"') || stderr !== '');
    expect(stderr).toBe('');
    const serving = stdout.split('\n').filter((line) => line.includes('"message":"serving"'));
    expect(serving).toHaveLength(1);
    const line = JSON.parse(serving[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({
      version: VERSION,
      apiServer: cluster.kubeConfig.getCurrentCluster()?.server,
      clouds: { scaleway: scaleway.url },
      leaderElection: { identity: expect.stringMatching(/^karpenter-eu-0_[0-9a-f]{8}$/), lease: 'default/karpenter-eu-leader-election' },
    });
    for (const server of ['webhook', 'extender', 'metrics']) expect(line[server]).toMatch(/^https?:\/\/127\.0\.0\.1:\d+/);
    // Only the handler `run` installed: the test runner's own SIGTERM handlers must not fire.
    const handler = process.listeners('SIGTERM').find((l) => !before.has(l));
    expect(handler).toBeDefined();
    (handler as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(await running).toBe(0);
  }, 60_000);
});
