/**
 * `demo --from-chart`: real Helm installs manifests/chart into the demo cluster with guide 001's `--set` line, and
 * the service runs from the Deployment the release created. The scenario passing proves the chart's configuration
 * works; each break below (a flag, an env name, a port, a Secret name, a CA) proves the demo reads it from the
 * release rather than from code, by failing with the reason.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdmissionregistrationV1Api, CustomObjectsApi, type V1Secret } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { demoCommand } from '../../src/testbed/demo/command.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../src/testbed/demo/environment.js';
import type { FromChartOptions } from '../../src/testbed/demo/chart/start.js';
import { runDemo } from '../../src/testbed/demo/run-demo.js';
import type { DemoStep } from '../../src/testbed/demo/scenario.js';
import { applyObjects, projectFile, readManifest } from '../../src/testbed/demo/install.js';
import { demoSteps } from '../../src/testbed/demo/steps/index.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { createCertificateAuthority } from '../../src/util/tls.js';
import { stepsPassed } from '../e2e/demo-harness.js';
import { chartDir } from './chart-fixtures.js';

/** The MKS cluster of the demo's OVH emulator: with no controller.clusterName the chart names the cluster after it. */
const kubeId = '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03';
const copies: string[] = [];

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the chart with one template line changed; the line must be there exactly once. */
function chartWith(template: string, from: string, to: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'broken-chart-'));
  copies.push(dir);
  cpSync(chartDir, dir, { recursive: true });
  const file = join(dir, 'templates', template);
  const text = readFileSync(file, 'utf8');
  expect(text.split(from).length - 1, `${template} holds ${JSON.stringify(from)} once`).toBe(1);
  writeFileSync(file, text.replace(from, to));
  return dir;
}

function start(fromChart: FromChartOptions): Promise<DemoEnvironment> {
  return startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    fromChart,
  });
}

describe('demo --from-chart --cloud ovhcloud', () => {
  it(
    "plays every step with the service configured by the release of guide 001's helm line: its webhooks, its extender, its cluster name",
    { timeout: 200_000 },
    async () => {
      const seen: Record<string, unknown> = {};
      // After the scenario, from inside: what the API server and the scheduler used.
      const wiring: DemoStep = {
        id: 'wiring',
        title: 'the release wiring',
        async run(ctx) {
          seen.stats = { ...ctx.env.cluster.scheduler.stats };
          seen.clusterName = ctx.env.chart?.config.clusterName;
          const validating = await ctx.kubeConfig
            .makeApiClient(AdmissionregistrationV1Api)
            .readValidatingWebhookConfiguration({ name: 'karpenter-eu-validation' });
          const secret = await ctx.core.readNamespacedSecret({ namespace: 'karpenter', name: 'karpenter-eu-cert' });
          seen.caBundle = validating.webhooks?.[0]?.clientConfig.caBundle;
          seen.ca = secret.data?.['ca.crt'];
          return 'read';
        },
      };
      let output = '';
      const { summary } = await runDemo({
        clouds: ['ovhcloud'],
        clock: new SystemClock(),
        logger: silentLogger,
        controllers: defaultControllers,
        write: (text) => (output += text),
        steps: [...demoSteps, wiring],
        fromChart: {},
      });
      expect(
        summary.steps.map((s) => `${s.id}:${s.status}`),
        output,
      ).toEqual([...stepsPassed(), 'wiring:passed']);
      expect(output).toContain(`helm install karpenter-eu ${chartDir} --namespace karpenter --set ovh.serviceName=`);
      expect(output).toMatch(/ports on loopback: 8443 \(webhooks, WEBHOOK_PORT\) → 127\.0\.0\.1:\d+, 8444 \(extender, EXTENDER_PORT\)/);
      // The chart's default cluster name (ovh.kubeId), the serving CA the service keeps, the extender called over it.
      expect(seen.clusterName).toBe(kubeId);
      expect(seen.caBundle).toBeDefined();
      expect(seen.caBundle).toBe(seen.ca);
      const stats = seen.stats as { extenderFilterCalls: number; extenderErrors: number };
      expect(stats.extenderFilterCalls).toBeGreaterThan(0);
      expect(stats.extenderErrors).toBe(0);
      // The OVH scenario's own outcomes, as `demo --cloud ovhcloud` plays them (test/e2e/demo-ovhcloud.slow.ts).
      expect(
        summary.nodes.every((n) => n.cloud === 'ovhcloud' && n.instanceType && n.zone && n.pricePerHour !== undefined),
        output,
      ).toBe(true);
      expect(
        summary.nodes.filter((n) => n.nodePool === 'gpu').map((n) => n.instanceType),
        output,
      ).toEqual(['l4-90']);
      expect(summary.nodes.filter((n) => n.terminatedInStep === 'drift' && n.reason === 'drifted').length, output).toBeGreaterThan(0);
      expect(output).toContain('kubectl patch OVHNodeClass/default {"spec":{"antiAffinity":true}}');
      expect(summary.finalHourlyCost).toBeLessThan(summary.peakHourlyCost);
    },
  );
});

describe('a chart that configures the service wrongly fails the demo, saying what', () => {
  it('a flag the service does not take', { timeout: 60_000 }, async () => {
    const chart = chartWith('deployment.yaml', 'args: ["run"]', 'args: ["run", "--webhook-prot=8443"]');
    await expect(start({ chartDir: chart })).rejects.toThrow(
      'container controller: karpenter-eu run refuses its args: unknown flag --webhook-prot',
    );
  });

  it('an env name the service does not read', { timeout: 60_000 }, async () => {
    const chart = chartWith('deployment.yaml', '(list "OVH_CONSUMER_KEY"', '(list "OVH_CONSUMERKEY"');
    await expect(start({ chartDir: chart })).rejects.toThrow(
      /karpenter-eu run refuses its configuration: .*ovhcloud credentials are incomplete: .* set but OVH_CONSUMER_KEY missing/,
    );
  });

  it('a container port the Service targets where the service does not listen', { timeout: 60_000 }, async () => {
    const chart = chartWith('deployment.yaml', 'containerPort: {{ .Values.webhook.port }}', 'containerPort: 9443');
    await expect(start({ chartDir: chart })).rejects.toThrow(
      'Service karpenter/karpenter-eu port 8443 reaches container port 9443, where the service does not listen (it listens on 8443 (webhooks, WEBHOOK_PORT), 8444 (extender, EXTENDER_PORT), 8080 (metrics, METRICS_PORT))',
    );
  });

  it('a credentials Secret name that is not the one created: the CLI exits 1 with the kubelet’s reason', { timeout: 60_000 }, async () => {
    let stderr = '';
    const status = await demoCommand(
      ['--from-chart', '--cloud', 'ovhcloud', '--quiet', '--set', 'cloud.ovhcloud.credentialsSecret.name=ovh-credential'],
      { stdout: () => undefined, stderr: (text) => (stderr += text), env: {} },
    );
    expect(status).toBe(1);
    expect(stderr).toBe('error: demo --from-chart: env OVH_APPLICATION_KEY: secret "ovh-credential" not found\n');
  });

  describe('a provided certificate: the caBundle the chart renders is what the API server trusts', () => {
    async function provided(caBundleFrom: 'serving CA' | 'another CA'): Promise<FromChartOptions> {
      const ca = await createCertificateAuthority('provided-ca');
      const other = await createCertificateAuthority('another-ca');
      const serving = await ca.issue({ dns: ['karpenter-eu.karpenter.svc'] });
      const secret: V1Secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'karpenter-eu-cert', namespace: 'karpenter' },
        type: 'kubernetes.io/tls',
        stringData: { 'tls.crt': serving.certPem, 'tls.key': serving.keyPem, 'ca.crt': ca.certPem },
      };
      const caBundle = Buffer.from((caBundleFrom === 'serving CA' ? ca : other).certPem).toString('base64');
      return {
        objects: [secret],
        set: [
          'webhook.cert.mode=provided',
          'webhook.cert.provided.secretName=karpenter-eu-cert',
          `webhook.cert.provided.caBundle=${caBundle}`,
        ],
      };
    }

    it('a caBundle of another CA fails the demo, naming the webhook', { timeout: 60_000 }, async () => {
      await expect(start(await provided('another CA'))).rejects.toThrow(
        /webhook defaulting\.karpenter-eu\.io of karpenter-eu-defaulting: the service's certificate does not verify with the caBundle for karpenter-eu\.karpenter\.svc: .*certificate/,
      );
    });

    it(
      'the caBundle of the serving CA: the service serves the mounted files and a NodeClass is admitted through the webhooks',
      { timeout: 60_000 },
      async () => {
        const env = await start(await provided('serving CA'));
        try {
          expect(env.chart?.run.env.WEBHOOK_CERT_FILE).toBe(join(env.chart?.run.root ?? '', '/etc/karpenter-eu/tls/tls.crt'));
          // The webhooks fail closed: the NodeClass is created only if the API server reached the service and trusted it.
          await applyObjects(env.cluster.kubeConfig, readManifest(projectFile('manifests/examples/ovhcloud/nodeclass.yaml')));
          const classes = await env.cluster.kubeConfig
            .makeApiClient(CustomObjectsApi)
            .listClusterCustomObject({ group: 'karpenter.ovhcloud.sh', version: 'v1alpha1', plural: 'ovhnodeclasses' });
          expect((classes as { items: unknown[] }).items.length).toBeGreaterThan(0);
          expect(env.cluster.scheduler.stats.extenderErrors).toBe(0);
        } finally {
          await env.close();
        }
      },
    );
  });
});
