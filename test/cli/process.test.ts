/**
 * The CLI as a process, where the shell's plumbing matters: a reader that closes the pipe early
 * (`catalog … | head`), `-f -` from a real standard input, and `run` started with no cluster to reach.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

const cli = ['--import', 'tsx', 'src/cli/bin.ts'];

/** Runs the bin; `closeStdout` closes the read end of its stdout at once, as `| head -0` would. */
function spawnCli(args: string[], options: { env?: Record<string, string>; stdin?: string; closeStdout?: boolean } = {}): Promise<Exit> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', XDG_CACHE_HOME: join(dir, 'cache'), ...options.env };
  const child = spawn(process.execPath, [...cli, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  if (options.closeStdout) child.stdout.destroy();
  else child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A loopback port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dir = mkdtempSync(join(tmpdir(), 'cli-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `run` refuses to start without a cluster name before it looks at the kubeconfig or the clouds. */
const clusterName = { CLUSTER_NAME: 'process-test' };
const scalewayAccount = {
  SCW_ACCESS_KEY: 'SCWXXXXXXXXXXXXXXXXX',
  SCW_SECRET_KEY: '11111111-1111-1111-1111-111111111111',
  SCW_DEFAULT_PROJECT_ID: '11111111-1111-1111-1111-111111111111',
};

describe('the karpenter-eu process', () => {
  it('ends quietly with status 0 when the reader closes the pipe (catalog … | head)', async () => {
    const exit = await spawnCli(['catalog', '--cloud', 'scaleway'], { closeStdout: true });
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
  });

  it('plans what a real standard input carries with -f -', async () => {
    const pod = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', namespace: 'ns' },
          spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] },
        },
      ],
    });
    const exit = await spawnCli(['plan', '-f', 'manifests/examples/ovhcloud', '-f', '-', '-o', 'json'], { stdin: pod });
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
    expect(JSON.parse(exit.stdout).nodeClaims[0].pods).toEqual(['ns/p']);
  });

  it('keeps compiled code in the user cache dir, and plans the same, quietly, when that dir cannot be written', async () => {
    const plan = ['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml', '-o', 'json'];
    const cache = join(dir, 'own-cache');
    const cached = await spawnCli(plan, { env: { XDG_CACHE_HOME: cache } });
    expect(cached.code).toBe(0);
    expect(readdirSync(join(cache, 'karpenter-eu', 'compile-cache'), { recursive: true }).length).toBeGreaterThan(0);
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    const uncached = await spawnCli(plan, { env: { XDG_CACHE_HOME: notADirectory } });
    expect(uncached).toEqual({ code: 0, stdout: cached.stdout, stderr: '' });
  });

  it('run with no kubeconfig outside a cluster exits 2 with one line, before starting anything', async () => {
    const exit = await spawnCli(['run'], { env: { ...clusterName, ...scalewayAccount } });
    expect(exit.code).toBe(2);
    expect(exit.stdout).toBe('');
    expect(exit.stderr).toBe(
      'error: run: no cluster to connect to: --kubeconfig and KUBECONFIG are unset and this is not a pod (KUBERNETES_SERVICE_HOST is unset); set --kubeconfig or KUBECONFIG, or run it in the cluster\n',
    );
  });
});

describe('run checks its configuration and reach at start', () => {
  async function runMain(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await main(['run', ...argv], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      env: { ...clusterName, ...env },
    });
    return { code, stdout, stderr };
  }

  function kubeconfig(name: string, server: string): string {
    const path = join(dir, name);
    writeFileSync(
      path,
      `apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts: [{name: c, context: {cluster: k, user: u}}]\nclusters: [{name: k, cluster: {server: ${JSON.stringify(server)}}}]\nusers: [{name: u, user: {token: t}}]\n`,
    );
    return path;
  }

  it('names a kubeconfig that does not exist', async () => {
    const { code, stderr } = await runMain(['--kubeconfig', join(dir, 'absent')], scalewayAccount);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: run: the kubeconfig "${join(dir, 'absent')}" (--kubeconfig or KUBECONFIG) does not exist; pass an existing file, or unset both to use the in-cluster configuration\n`,
    );
  });

  it('names a cluster whose server is not a URL', async () => {
    const { code, stderr } = await runMain([], { ...scalewayAccount, KUBECONFIG: kubeconfig('bad-server', 'undefined:undefined') });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: run: the kubeconfig ".*bad-server": cluster "k" has server "undefined:undefined"; accepted: an https:\/\/ \(or http:\/\/\) URL\n$/,
    );
  });

  it('in a pod without a service account token, says so', async () => {
    const { code, stderr } = await runMain([], { ...scalewayAccount, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' });
    expect(code).toBe(2);
    expect(stderr).toContain('in-cluster configuration without a service account token');
  });

  it('refuses to start with no cloud account', async () => {
    const { code, stderr } = await runMain([], { KUBECONFIG: kubeconfig('ok', 'https://127.0.0.1:6443') });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: run: building cloud providers: no cloud credentials are set; accepted: all of OVH_APPLICATION_KEY.*\n$/,
    );
  });

  it('exits 1 naming the API server it cannot reach', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await runMain([], {
      ...scalewayAccount,
      KUBECONFIG: kubeconfig('refused', `https://127.0.0.1:${port}`),
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: run: cannot reach the Kubernetes API server at https://127.0.0.1:${port}: ECONNREFUSED; check the kubeconfig's server, the network and the credentials\n`,
    );
  });

  it('names why fetch refused the API server address instead of a bare "fetch failed"', async () => {
    // Port 9 is on fetch's blocked-port list: the request never leaves the process.
    const { code, stderr } = await runMain([], { ...scalewayAccount, KUBECONFIG: kubeconfig('blocked', 'https://127.0.0.1:9') });
    expect(code).toBe(1);
    expect(stderr).toBe(
      "error: run: cannot reach the Kubernetes API server at https://127.0.0.1:9: bad port; check the kubeconfig's server, the network and the credentials\n",
    );
  });
});
