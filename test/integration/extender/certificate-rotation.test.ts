import https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCertificateAuthority } from '../../../src/util/tls.js';
import { createExtenderServer, type RunningExtenderServer } from '../../../webhooks/extender/index.js';

/** A new TLS connection to /healthz trusting only `ca`: resolves with the status, rejects if the certificate is not signed by it. */
function healthzTrusting(server: RunningExtenderServer, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(`${server.url}/healthz`, { ca, agent: false, servername: 'localhost' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('the extender serves a rotated certificate like the webhooks (Secret volume files, no restart)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'extender-certs-'));
  let server: RunningExtenderServer | undefined;
  afterEach(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('picks up new tls.crt/tls.key files for new connections and stops serving the old certificate', async () => {
    const first = await (await createCertificateAuthority('first-ca')).issue({ dns: ['localhost'], ips: ['127.0.0.1'] });
    const second = await (await createCertificateAuthority('second-ca')).issue({ dns: ['localhost'], ips: ['127.0.0.1'] });
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    writeFileSync(certFile, first.certPem);
    writeFileSync(keyFile, first.keyPem);
    server = await createExtenderServer({
      view: new Map(),
      onNeedsCapacity: () => undefined,
      tls: { certFile, keyFile, pollIntervalMs: 20 },
    }).listen(0);
    expect(server.url).toMatch(/^https:/);
    expect(await healthzTrusting(server, first.caPem)).toBe(200);
    writeFileSync(certFile, second.certPem);
    writeFileSync(keyFile, second.keyPem);
    const running = server;
    await vi.waitFor(() => healthzTrusting(running, second.caPem), { timeout: 10_000, interval: 50 });
    await expect(healthzTrusting(server, first.caPem)).rejects.toThrow();
  });
});
