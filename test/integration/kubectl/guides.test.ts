/**
 * The users' guides (seeds 001 and 004) typed into the demo cluster with the real kubectl 1.31: apply, scale,
 * `get … -o wide`, `get -w`, `get events --sort-by`, `describe`, `explain`. Each output's columns are the ones a
 * real cluster prints: kube-apiserver's built-in printers (pkg/printers/internalversion/printers.go) for events,
 * nodes, pods and deployments, the CRDs' additionalPrinterColumns (kubernetes-sigs/karpenter
 * pkg/apis/crds/karpenter.sh_nodeclaims.yaml, karpenter.sh_nodepools.yaml) for NodeClaims and NodePools.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let env: DemoEnvironment;
let dir: string;
let kubeconfig: string;
let scaled: Run;
let watcher: ChildProcess | undefined;
let watchOutput = '';

/** The real kubectl as a separate process (the simulated API server answers on this process's event loop). */
function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', kubeconfig, ...args],
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

/** The seeds' test Deployment, as written in them. */
const inflate = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: inflate
spec:
  replicas: 0
  selector:
    matchLabels:
      app: inflate
  template:
    metadata:
      labels:
        app: inflate
    spec:
      containers:
        - name: inflate
          image: public.ecr.aws/eks-distro/kubernetes/pause:3.7
          resources:
            requests:
              cpu: "1"
              memory: "1Gi"
`;

/** A printed table: its header cells (split on 2+ spaces, as kubectl pads) and rows keyed by header. */
function table(text: string): { headers: string[]; rows: Array<Record<string, string>> } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index }));
  const rows = lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    starts.forEach((s, i) => {
      const end = starts[i + 1]?.at ?? line.length;
      row[s.name] = line.slice(s.at, i + 1 < starts.length ? end : undefined).trim();
    });
    return row;
  });
  return { headers: starts.map((s) => s.name), rows };
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
  kubeconfig = env.kubeconfigPath ?? '';
  dir = mkdtempSync(join(tmpdir(), 'kubectl-guides-'));
  writeFileSync(join(dir, 'inflate.yaml'), inflate);
  for (const file of ['manifests/examples/ovhcloud/', join(dir, 'inflate.yaml')]) {
    const applied = await kubectl('apply', '-f', file);
    if (applied.code !== 0) throw new Error(`kubectl apply -f ${file}: ${applied.stderr}`);
  }
  // `kubectl get nodeclaims -w` (seed 001, step 3) runs while the scale-up happens.
  watcher = spawn(ensureRealBinaries().kubectl, ['--kubeconfig', kubeconfig, 'get', 'nodeclaims', '-w']);
  watcher.stdout?.on('data', (chunk: Buffer) => (watchOutput += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  scaled = await kubectl('scale', 'deployment/inflate', '--replicas=10');
  // Whether or not `scale` worked, the rest of the guide reads a cluster that scaled up.
  if (scaled.code !== 0) await kubectl('patch', 'deployment', 'inflate', '-p', '{"spec":{"replicas":10}}');
  await eventually(async () => {
    const pods = await kubectl('get', 'pods', '-l', 'app=inflate', '-o', 'jsonpath={.items[*].status.phase}');
    return pods.stdout.split(' ').filter((p) => p === 'Running').length === 10 ? true : undefined;
  }, '10 inflate pods Running');
}, 120_000);

afterAll(async () => {
  watcher?.kill();
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the guides on the demo cluster with the real kubectl 1.31', () => {
  it('`kubectl scale deployment/inflate --replicas=10` scales through the scale subresource', async () => {
    expect(scaled.stderr).toBe('');
    expect(scaled.stdout).toBe('deployment.apps/inflate scaled\n');
    const replicas = await kubectl('get', 'deployment', 'inflate', '-o', 'jsonpath={.spec.replicas}');
    expect(replicas.stdout).toBe('10');
  });

  it('`kubectl get deployments` prints READY, UP-TO-DATE and AVAILABLE', async () => {
    const { headers, rows } = table((await kubectl('get', 'deployments')).stdout);
    expect(headers).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(rows.find((r) => r.NAME === 'inflate')).toMatchObject({ READY: '10/10', 'UP-TO-DATE': '10', AVAILABLE: '10' });
  });

  it('`kubectl get nodepools,nodeclaims -o wide` fills TYPE, CAPACITY, ZONE and NODEPOOL from the labels', async () => {
    // A NodeClaim in flight (a consolidation replacement made while the suite runs) has no instance type yet, as on
    // a real cluster: read the table once every NodeClaim has launched.
    const out = await eventually(async () => {
      const got = await kubectl('get', 'nodepools,nodeclaims', '-o', 'wide');
      const listed = table(got.stdout.split('\n\n')[1] ?? '').rows;
      return got.code === 0 && listed.length > 0 && listed.every((r) => r.TYPE !== '') ? got : undefined;
    }, 'every NodeClaim launched');
    const [pools = '', claims = ''] = out.stdout.split('\n\n');
    expect(table(pools).headers).toEqual(['NAME', 'NODECLASS', 'NODES', 'READY', 'AGE', 'WEIGHT', 'CPU', 'MEMORY']);
    const { headers, rows } = table(claims);
    expect(headers).toEqual([
      'NAME',
      'TYPE',
      'CAPACITY',
      'ZONE',
      'NODE',
      'READY',
      'AGE',
      'IMAGEID',
      'ID',
      'NODEPOOL',
      'NODECLASS',
      'DRIFTED',
    ]);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.TYPE).toMatch(/^[a-z]\d+-\d+$/);
      expect(row.CAPACITY).toBe('on-demand');
      expect(row.ZONE).toMatch(/^eu-west-par-[abc]$/);
      expect(row.NODEPOOL).toBe('default');
      expect(row.NODECLASS).toBe('default');
      expect(row.ID).toMatch(/^openstack:\/\/\//);
    }
  });

  it('`kubectl get nodeclaims -w` prints the CRD columns for the NodeClaims it sees appear', async () => {
    // A NodeClaim is first seen before its launch (no instance type yet: an empty cell, as kube-apiserver's
    // null prints), then with the labels the launch wrote. Each event is aligned on its own, so the columns
    // are read in order rather than at the header's offsets.
    const launched = await eventually(
      async () =>
        /^default-\S+\s+([a-z]\d+-\d+)\s+(on-demand)\s+(eu-west-par-[abc])\s+(karpenter-\S+)\s+(\S+)\s+(\S+)$/m.exec(watchOutput) ??
        undefined,
      'a launched NodeClaim in the watch output',
      20_000,
    );
    expect(watchOutput.split('\n')[0]?.split(/\s+/)).toEqual(['NAME', 'TYPE', 'CAPACITY', 'ZONE', 'NODE', 'READY', 'AGE']);
    expect(launched[5]).toMatch(/^(True|False|Unknown)$/);
    expect(launched[6]).toMatch(/^\d+s$/);
  });

  it('`kubectl get events --sort-by=.lastTimestamp` prints LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, oldest first', async () => {
    const out = await kubectl('get', 'events', '--sort-by=.lastTimestamp');
    expect(out.stderr).toBe('');
    const { headers, rows } = table(out.stdout);
    expect(headers).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.OBJECT)).toContainEqual(expect.stringMatching(/^pod\/inflate-/));
    for (const row of rows) {
      expect(row.TYPE).toMatch(/^(Normal|Warning)$/);
      expect(row.REASON).not.toBe('<none>');
      expect(row.MESSAGE).not.toBe('');
    }
    const stamps = await kubectl('get', 'events', '--sort-by=.lastTimestamp', '-o', 'jsonpath={.items[*].lastTimestamp}');
    const times = stamps.stdout.split(' ').map((t) => Date.parse(t));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('`kubectl get nodes -o wide` prints STATUS, ROLES, VERSION and the node info columns', async () => {
    const { headers, rows } = table((await kubectl('get', 'nodes', '-o', 'wide')).stdout);
    expect(headers).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ]);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({ STATUS: 'Ready', ROLES: '<none>', VERSION: 'v1.33.0', 'OS-IMAGE': 'Ubuntu 24.04 LTS' });
      expect(row['CONTAINER-RUNTIME']).toBe('containerd://2.0.0');
    }
  });

  it('`kubectl get pods -o wide` prints READY, STATUS, RESTARTS, IP and NODE', async () => {
    const { headers, rows } = table((await kubectl('get', 'pods', '-o', 'wide')).stdout);
    expect(headers).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    const pods = rows.filter((r) => r.NAME?.startsWith('inflate-'));
    expect(pods).toHaveLength(10);
    for (const row of pods) {
      expect(row).toMatchObject({ READY: '1/1', STATUS: 'Running', RESTARTS: '0', 'NOMINATED NODE': '<none>' });
      expect(row.IP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(row.NODE).toMatch(/^karpenter-/);
    }
  });

  it('`kubectl describe nodepool default` shows the defaults kube-apiserver applies from the CRD schema', async () => {
    const out = await kubectl('describe', 'nodepool', 'default');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/Budgets:\n\s+Nodes:\s+10%/);
    const gpu = await kubectl('get', 'nodepool', 'gpu', '-o', 'jsonpath={.spec.template.spec.expireAfter} {.spec.disruption.budgets}');
    expect(gpu.stdout).toBe('720h [{"nodes":"10%"}]');
  });

  it('`kubectl explain nodepool.spec` describes the fields from the CRD schema', async () => {
    const out = await kubectl('explain', 'nodepool.spec');
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('FIELD: spec <Object>');
    for (const field of ['disruption', 'limits', 'template', 'weight']) expect(out.stdout).toMatch(new RegExp(`^  ${field}\\s+<`, 'm'));
    const conditions = await kubectl('explain', 'nodeclaim.status.conditions');
    expect(conditions.stdout).toMatch(/FIELD: conditions <\[\]Object>/);
  });
});
