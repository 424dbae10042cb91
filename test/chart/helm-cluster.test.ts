/**
 * Real Helm against the simulated API server: what only a render that sees the cluster shows — that a server-side
 * render (upgrades, Argo CD/Flux) is the same as a client-side one whatever certificate the cluster holds, and the
 * NOTES a user reads after install.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../src/testbed/cluster/apiserver/index.js';
import { createCertificateAuthority } from '../../src/util/tls.js';
import { chartCertificateOptions, chartDir, render, testClusterName } from './chart-fixtures.js';
import { type HelmResult, helmOrThrow, parseManifests, realBinaries } from './helm.js';

let apiServer: ApiServer;
let dir: string;

/** Helm as a separate process (the simulated API server answers on this process's event loop). */
async function helmOnCluster(args: string[]): Promise<HelmResult> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    HELM_CACHE_HOME: join(dir, 'cache'),
    HELM_CONFIG_HOME: join(dir, 'config'),
    HELM_DATA_HOME: join(dir, 'data'),
    KUBECONFIG: join(dir, 'kubeconfig'),
  };
  return promisify(execFile)(realBinaries.helm, args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ status: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
}

const install = [
  '--namespace',
  'karpenter',
  '--set',
  `controller.clusterName=${testClusterName}`,
  '--set',
  'ovh.serviceName=p1',
  '--set',
  'ovh.kubeId=k1',
];

beforeAll(async () => {
  apiServer = await startApiServer({ namespaces: ['default', 'kube-system', 'karpenter'] });
  // RBAC is built into a real API server; Helm resolves every kind it installs.
  for (const [kind, plural, namespaced] of [
    ['ClusterRole', 'clusterroles', false],
    ['ClusterRoleBinding', 'clusterrolebindings', false],
    ['Role', 'roles', true],
    ['RoleBinding', 'rolebindings', true],
  ] as const) {
    apiServer.registry.add({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      kind,
      plural,
      namespaced,
      listKind: `${kind}List`,
      singular: kind.toLowerCase(),
      shortNames: [],
      categories: [],
      subresources: [],
      strategicMerge: false,
    });
  }
  dir = mkdtempSync(join(tmpdir(), 'helm-cluster-'));
  writeFileSync(join(dir, 'kubeconfig'), apiServer.kubeConfig.exportConfig());
});

afterAll(async () => {
  await apiServer.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('certificates under GitOps', () => {
  it("a server-side render, with the service's certificate Secret in the cluster, is byte for byte the client-side render", async () => {
    const chart = await render({ controller: { clusterName: testClusterName }, ovh: { serviceName: 'p1', kubeId: 'k1' } });
    const ca = await createCertificateAuthority('karpenter-eu.karpenter.svc-ca');
    const serving = await ca.issue({ dns: ['karpenter-eu.karpenter.svc'] });
    const data = Object.fromEntries(
      Object.entries({ 'ca.crt': ca.certPem, 'ca.key': ca.keyPem, 'tls.crt': serving.certPem, 'tls.key': serving.keyPem }).map(([k, v]) => [
        k,
        Buffer.from(v).toString('base64'),
      ]),
    );
    await apiServer.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedSecret({
      namespace: 'karpenter',
      body: { metadata: { name: chartCertificateOptions(chart).secret.name }, type: 'kubernetes.io/tls', data },
    });
    const args = ['template', 'karpenter-eu', chartDir, ...install];
    const clientSide = helmOrThrow(args).stdout;
    const serverSide = await Promise.all([1, 2].map(() => helmOnCluster([...args, '--dry-run=server'])));
    for (const result of serverSide) {
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(clientSide);
    }
    expect(clientSide).not.toContain(data['ca.crt']);
  });
});

describe('after helm install', () => {
  it('NOTES print the extender as the scheduler configurations call it: https, the Service, its server name and CA Secret', async () => {
    const result = await helmOnCluster(['install', 'autoscaler', chartDir, '--dry-run=server', '--disable-openapi-validation', ...install]);
    expect(result.stderr).toBe('');
    const notes = result.stdout.slice(result.stdout.indexOf('NOTES:'));
    expect(notes).toContain('urlPrefix: https://autoscaler-karpenter-eu.karpenter.svc:8444/scheduler');
    expect(notes).toContain('tlsConfig.serverName: autoscaler-karpenter-eu.karpenter.svc');
    expect(notes).toContain('CA: key ca.crt of Secret karpenter/autoscaler-karpenter-eu-cert');
    expect(notes).toContain('Clouds: ovhcloud (Secret ovh-credentials)');
    expect(notes).not.toContain('http://');
  });

  it("NOTES say what to type instead of the guides' `kubectl logs -l app.kubernetes.io/name=karpenter-ovhcloud`: the Deployment's own pod labels", async () => {
    // Guide 001's install line as written: release karpenter-ovhcloud, namespace karpenter, no cluster name.
    const set = ['ovh.serviceName=0123456789abcdef0123456789abcdef', 'ovh.kubeId=6f2cbb1c-0f6d-4c0e-9a7e-6a3c0e2f1b9d', 'ovh.region=GRA7'];
    const args = [
      'install',
      'karpenter-ovhcloud',
      chartDir,
      '--dry-run=server',
      '--disable-openapi-validation',
      '--namespace',
      'karpenter',
    ];
    const result = await helmOnCluster([...args, ...set.flatMap((s) => ['--set', s])]);
    expect(result.stderr).toBe('');
    const notesAt = result.stdout.indexOf('NOTES:');
    const deployment = parseManifests(result.stdout.slice(0, notesAt))
      .map((d) => d.object)
      .find((o) => o.kind === 'Deployment') as k8s.V1Deployment;
    const notes = result.stdout.slice(notesAt);
    const logs = /(kubectl logs -n karpenter -l (\S+) -f)$/m.exec(notes);
    expect(logs?.[1]).toBe(
      'kubectl logs -n karpenter -l app.kubernetes.io/name=karpenter-eu,app.kubernetes.io/instance=karpenter-ovhcloud -f',
    );
    const selector = Object.fromEntries((logs?.[2] ?? '').split(',').map((pair) => pair.split('=') as [string, string]));
    expect(selector).toEqual(deployment.spec?.selector.matchLabels);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject(selector);
    expect(notes).toContain('app.kubernetes.io/name=karpenter-ovhcloud matches no pod of this chart');
    expect(notes).toContain('Cluster name: 6f2cbb1c-0f6d-4c0e-9a7e-6a3c0e2f1b9d (ovh.kubeId)');
  });
});
