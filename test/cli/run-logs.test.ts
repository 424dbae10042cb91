/**
 * The running service's own stdout, line by line: every line has upstream Karpenter's JSON keys (`level` upper-case,
 * `time`, `logger`, `message`, no `msg`), objects are `{"Kind":{"name":…}}`, and a credential that reaches a log line
 * (here: a cloud gateway that quotes the caller's Authorization header and the key in its error answer) is redacted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeKubeconfig } from '../../src/testbed/cluster/apiserver/kubeconfig.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/testbed/cluster/index.js';
import { installCrds } from '../../src/testbed/demo/install.js';
import { createLoopbackCertificate } from '../../src/util/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'run-logs-'));
const secretKey = '3f6c1b9e-2a4d-4c8b-9e7f-1a2b3c4d5e6f';
const bearer = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrYXJwZW50ZXIifQ.c2lnbmF0dXJlLXZhbHVl';
let cluster: SimulatedCluster;
let gateway: Server;
let gatewayUrl: string;
let kubeconfig: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  cluster = await startSimulatedCluster();
  await installCrds(cluster.kubeConfig);
  // A gateway in front of the cloud API that refuses every call and quotes what it was sent.
  gateway = createServer((req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'service_unavailable',
        message: `upstream refused Authorization: Bearer ${bearer} (X-Auth-Token ${String(req.headers['x-auth-token'])})`,
        secret_key: req.headers['x-auth-token'],
      }),
    );
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  kubeconfig = await writeKubeconfig(cluster.kubeConfig.getCurrentCluster()?.server ?? '');
  const certificate = await createLoopbackCertificate();
  writeFileSync(join(dir, 'tls.crt'), certificate.certPem);
  writeFileSync(join(dir, 'tls.key'), certificate.keyPem);
}, 60_000);

afterAll(async () => {
  await kubeconfig?.remove();
  await new Promise((resolve) => gateway?.close(resolve));
  await cluster?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the running service logs', () => {
  it("writes every line with upstream's keys and redacts the credentials a cloud error quotes", async () => {
    let stdout = '';
    let stderr = '';
    const env = {
      SCW_ACCESS_KEY: 'SCWA1B2C3D4E5F6G7H8J',
      SCW_SECRET_KEY: secretKey,
      SCW_DEFAULT_PROJECT_ID: '7d2e9a41-5b3c-4e8f-a1d6-0c9b8a7f6e5d',
      SCW_API_URL: gatewayUrl,
      HOSTNAME: 'karpenter-eu-0',
      CLUSTER_NAME: 'run-logs',
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
      '--log-level',
      'debug',
    ];
    const before = new Set(process.listeners('SIGTERM'));
    const running = main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
    await until(() => stdout.includes('"message":"serving"') || stderr !== '', 30_000);
    expect(stderr).toBe('');
    // The service reads the cloud through the gateway (region list, instance types) and logs what it answered.
    await until(() => stdout.includes('REDACTED'), 30_000);
    const handler = process.listeners('SIGTERM').find((l) => !before.has(l));
    (handler as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(await running).toBe(0);

    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(record).slice(0, 4), line).toEqual(['level', 'time', 'logger', 'message']);
      expect(['DEBUG', 'INFO', 'WARN', 'ERROR'], line).toContain(record.level);
      expect(new Date(record.time as string).toISOString(), line).toBe(record.time);
      expect(typeof record.logger === 'string' && typeof record.message === 'string', line).toBe(true);
      for (const key of ['msg', 'nodeClaim', 'nodeclaim', 'nodePool', 'nodepool', 'node']) expect(record, line).not.toHaveProperty(key);
    }
    expect(stdout).not.toContain(secretKey);
    expect(stdout).not.toContain(bearer);
    expect(lines.some((l) => l.includes('Bearer [REDACTED]'))).toBe(true);
  }, 90_000);
});
