/**
 * `helm install` of the chart into the demo cluster with the real Helm 3.17 and kubectl 1.31, as guide 001 types it:
 * install, status, upgrade with a changed value, uninstall. Helm keeps its release in a Secret written by client-go's
 * typed client, which sends and asks for Kubernetes protobuf (with no fallback to JSON): every step below reads or
 * writes that Secret.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../src/testbed/demo/environment.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { chartDir } from './chart-fixtures.js';
import { type HelmResult, parseManifests, realBinaries } from './helm.js';

let env: DemoEnvironment;
let dir: string;

/** Helm or kubectl as a separate process (the simulated API server answers on this process's event loop). */
async function run(binary: string, args: string[]): Promise<HelmResult> {
  const processEnv = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    HELM_CACHE_HOME: join(dir, 'cache'),
    HELM_CONFIG_HOME: join(dir, 'config'),
    HELM_DATA_HOME: join(dir, 'data'),
    KUBECONFIG: join(dir, 'kubeconfig'),
  };
  return promisify(execFile)(binary, args, { encoding: 'utf8', env: processEnv, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ status: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
}

const helmCli = (...args: string[]) => run(realBinaries.helm, args);
const kubectl = (...args: string[]) => run(realBinaries.kubectl, args);

/** Guide 001's install line, its placeholders filled (the MKS cluster of the demo's OVHcloud emulator). */
const guide001 = [
  'install',
  'karpenter-ovhcloud',
  chartDir,
  '--namespace',
  'karpenter',
  '--create-namespace',
  '--set',
  'ovh.serviceName=0123456789abcdef0123456789abcdef',
  '--set',
  'ovh.kubeId=6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03',
  '--set',
  'ovh.region=EU-WEST-PAR',
];

/** `kind/name` of every object in the release's manifest (Helm's own record of what it installed). */
async function releaseObjects(): Promise<Array<{ kind: string; name: string; namespaced: boolean }>> {
  const manifest = await helmCli('get', 'manifest', 'karpenter-ovhcloud', '--namespace', 'karpenter');
  expect(manifest.stderr).toBe('');
  return parseManifests(manifest.stdout).map(({ object }) => {
    const metadata = object.metadata as { name: string; namespace?: string };
    return { kind: String(object.kind), name: metadata.name, namespaced: metadata.namespace !== undefined };
  });
}

function kindArgument(kind: string, name: string): string {
  const groups: Record<string, string> = {
    ClusterRole: 'clusterroles.rbac.authorization.k8s.io',
    ClusterRoleBinding: 'clusterrolebindings.rbac.authorization.k8s.io',
    Role: 'roles.rbac.authorization.k8s.io',
    RoleBinding: 'rolebindings.rbac.authorization.k8s.io',
    MutatingWebhookConfiguration: 'mutatingwebhookconfigurations.admissionregistration.k8s.io',
    ValidatingWebhookConfiguration: 'validatingwebhookconfigurations.admissionregistration.k8s.io',
  };
  return `${groups[kind] ?? kind.toLowerCase()}/${name}`;
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  dir = mkdtempSync(join(tmpdir(), 'helm-install-'));
  writeFileSync(join(dir, 'kubeconfig'), env.cluster.kubeConfig.exportConfig());
}, 120_000);

afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each step needs the one before: one test, in the order a user types them. */
describe('helm install of the chart into the demo cluster', () => {
  it("guide 001's line installs, then helm status, helm upgrade --set and helm uninstall work", async () => {
    await install();
    await status();
    await upgrade();
    await uninstall();
  }, 240_000);
});

async function install(): Promise<void> {
  const installed = await helmCli(...guide001);
  expect(installed.stderr).toBe('');
  expect(installed.status).toBe(0);
  expect(installed.stdout).toMatch(/^STATUS: deployed$/m);

  const objects = await releaseObjects();
  expect(objects.map((o) => o.kind).sort()).toEqual(
    expect.arrayContaining(['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'Role', 'RoleBinding', 'Service', 'ServiceAccount']),
  );
  for (const { kind, name, namespaced } of objects) {
    const got = await kubectl('get', kindArgument(kind, name), ...(namespaced ? ['--namespace', 'karpenter'] : []), '-o', 'name');
    expect(got.stderr, `${kind}/${name}`).toBe('');
    expect(got.stdout.trim().endsWith(`/${name}`), `${kind}/${name}: ${got.stdout}`).toBe(true);
  }
  // The release itself, as Helm's Secret driver stored it through the protobuf body.
  const secret = await kubectl('get', 'secret', 'sh.helm.release.v1.karpenter-ovhcloud.v1', '--namespace', 'karpenter', '-o', 'json');
  const stored = JSON.parse(secret.stdout) as { type: string; metadata: { labels: Record<string, string> }; data: { release: string } };
  expect(stored.type).toBe('helm.sh/release.v1');
  expect(stored.metadata.labels).toMatchObject({ name: 'karpenter-ovhcloud', owner: 'helm', status: 'deployed', version: '1' });
  expect(stored.data.release.length).toBeGreaterThan(1000);
}

async function status(): Promise<void> {
  const result = await helmCli('status', 'karpenter-ovhcloud', '--namespace', 'karpenter');
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(/^STATUS: deployed$/m);
  expect(result.stdout).toMatch(/^REVISION: 1$/m);
  expect(result.stdout).toContain('Cluster name: 6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03 (ovh.kubeId)');
}

/** A changed value reaches the Deployment; the first revision is kept as superseded. */
async function upgrade(): Promise<void> {
  const upgraded = await helmCli(
    'upgrade',
    'karpenter-ovhcloud',
    chartDir,
    '--namespace',
    'karpenter',
    '--reuse-values',
    '--set',
    'controller.logLevel=debug',
  );
  expect(upgraded.stderr).toBe('');
  expect(upgraded.stdout).toMatch(/^REVISION: 2$/m);
  const logLevel = await kubectl(
    'get',
    'deployment',
    'karpenter-ovhcloud-karpenter-eu',
    '--namespace',
    'karpenter',
    '-o',
    'jsonpath={.spec.template.spec.containers[0].env[?(@.name=="LOG_LEVEL")].value}',
  );
  expect(logLevel.stdout).toBe('debug');
  const history = await helmCli('history', 'karpenter-ovhcloud', '--namespace', 'karpenter', '-o', 'json');
  expect((JSON.parse(history.stdout) as Array<{ revision: number; status: string }>).map((r) => [r.revision, r.status])).toEqual([
    [1, 'superseded'],
    [2, 'deployed'],
  ]);
}

/** Removes what it installed and its release records; the CRDs (crds/) stay, as Helm never deletes them. */
async function uninstall(): Promise<void> {
  const objects = await releaseObjects();
  const uninstalled = await helmCli('uninstall', 'karpenter-ovhcloud', '--namespace', 'karpenter');
  expect(uninstalled.stderr).toBe('');
  expect(uninstalled.stdout).toContain('release "karpenter-ovhcloud" uninstalled');
  for (const { kind, name, namespaced } of objects) {
    const got = await kubectl('get', kindArgument(kind, name), ...(namespaced ? ['--namespace', 'karpenter'] : []));
    expect(got.stderr, `${kind}/${name}`).toContain('NotFound');
  }
  const releases = await kubectl('get', 'secrets', '--namespace', 'karpenter', '-l', 'owner=helm', '-o', 'name');
  expect(releases.stdout.trim()).toBe('');
  const crds = await kubectl('get', 'crd', '-o', 'name');
  expect(crds.stdout).toContain('nodepools.karpenter.sh');
  expect(crds.stdout).toContain('ovhnodeclasses.karpenter.ovhcloud.sh');
}
