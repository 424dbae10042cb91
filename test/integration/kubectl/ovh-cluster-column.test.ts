/**
 * `kubectl get ovhnodeclasses -o wide` with the real kubectl 1.31: the CLUSTER column shows the MKS cluster a
 * class runs in, also when the class leaves spec.kubeId unset and the service names the cluster (the chart's
 * ovh.kubeId, OVH_KUBE_ID), as the status controller records it in status.kubeId.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type RunningOperator, startOperator } from '../../../src/operator/operator.js';
import { parseOperatorOptions } from '../../../src/operator/options.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';

/** The demo OVH emulator's project and cluster (manifests/examples/ovhcloud/nodeclass.yaml). */
const serviceName = '0123456789abcdef0123456789abcdef';
const kubeId = '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03';

let env: DemoEnvironment;
let operator: RunningOperator | undefined;
let dir: string;

function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', env.kubeconfigPath ?? '', ...args],
      { encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** The printed table's rows keyed by header, cut at the header cells' columns (kubectl pads; an empty cell is blank). */
function rows(text: string): Array<Record<string, string>> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const starts = [...(lines[0] ?? '').matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines
    .slice(1)
    .map((line) => Object.fromEntries(starts.map((s, i) => [s.name, line.slice(s.at, starts[i + 1]?.at ?? line.length).trim()])));
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
  // The service as the chart's `--set ovh.serviceName=… --set ovh.kubeId=…` configures it.
  await env.operator.stop();
  const args = [
    '--cluster-name=karpenter-eu-demo',
    '--bind-address=127.0.0.1',
    '--webhook-port=0',
    '--extender-port=0',
    '--metrics-port=0',
    '--leader-election-namespace=karpenter',
    '--leader-election-identity=ovh-kubeid',
    '--leader-election-lease-duration=3s',
    '--leader-election-renew-deadline=2s',
    '--leader-election-retry-period=200ms',
  ];
  operator = await startOperator({
    config: parseOperatorOptions(args, {
      ...env.operatorEnv,
      OVH_SERVICE_NAME: serviceName,
      OVH_KUBE_ID: kubeId,
      OVH_REGION: 'EU-WEST-PAR',
    }),
    kubeConfig: env.cluster.kubeConfig,
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    webhookTls: await createLoopbackCertificate(),
  });
  // Its webhooks are not what this test reads: the configurations name the demo's stopped service.
  await kubectl('delete', 'validatingwebhookconfigurations,mutatingwebhookconfigurations', '--all');
  dir = mkdtempSync(join(tmpdir(), 'ovh-cluster-column-'));
  writeFileSync(
    join(dir, 'class.yaml'),
    `apiVersion: karpenter.ovhcloud.sh/v1alpha1
kind: OVHNodeClass
metadata:
  name: from-service
spec:
  serviceName: "${serviceName}"
`,
  );
  const applied = await kubectl('apply', '-f', join(dir, 'class.yaml'));
  if (applied.code !== 0) throw new Error(`kubectl apply: ${applied.stderr}`);
}, 120_000);

afterAll(async () => {
  await operator?.stop();
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('kubectl get ovhnodeclasses -o wide', () => {
  it("shows in CLUSTER the service's kubeId for a class without spec.kubeId", async () => {
    const deadline = Date.now() + 60_000;
    let row: Record<string, string> | undefined;
    for (;;) {
      const out = await kubectl('get', 'ovhnodeclasses', 'from-service', '-o', 'wide');
      expect(out.stderr).toBe('');
      row = rows(out.stdout)[0];
      if (row?.CLUSTER === kubeId || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(row).toMatchObject({ NAME: 'from-service', PROJECT: serviceName, CLUSTER: kubeId });
    const status = await kubectl('get', 'ovhnodeclass', 'from-service', '-o', 'jsonpath={.status.kubeId}');
    expect(status.stdout).toBe(kubeId);
  }, 90_000);
});
