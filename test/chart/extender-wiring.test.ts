/**
 * The chart (rendered by real Helm) and the shipped scheduler configurations (manifests/scheduler/) agree on how the
 * extender is reached: scheme, Service name and port, TLS server name, CA and the Secret holding it. Then the
 * simulated scheduler calls the extender with exactly those configurations over TLS, the extender serving the
 * certificate the service makes (selfSigned, the default mode) from the Secret it keeps in the simulated cluster.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { globalAgent } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { ExtenderNode } from '../../src/domain/extender/index.js';
import { createCertificateAuthority } from '../../src/util/tls.js';
import { type ExtenderConfigurationEntry, extenderFromConfiguration } from '../../src/testbed/cluster/index.js';
import { ExtenderClient } from '../../src/testbed/cluster/scheduler/extender-client.js';
import { createExtenderServer, type RunningExtenderServer } from '../../webhooks/extender/index.js';
import { LiveCertificate } from '../../webhooks/shared/certificate-source.js';
import { CertificateController } from '../../src/controllers/certificates/certificate-controller.js';
import { createKube } from '../../src/kube/client.js';
import { ServingValidityDays } from '../../src/operator/certificate-options.js';
import { type ApiServer, startApiServer } from '../../src/testbed/cluster/apiserver/index.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { chartCertificateOptions, only, type RenderedChart, render, repoRoot, valuesFor } from './chart-fixtures.js';

interface SchedulerConfiguration {
  extenders: ExtenderConfigurationEntry[];
}

const schedulerManifest = (name: string): string => readFileSync(join(repoRoot, 'manifests', 'scheduler', name), 'utf8');
const secondSchedulerObjects = YAML.parseAllDocuments(schedulerManifest('second-scheduler.yaml')).map(
  (d) => d.toJS() as k8s.KubernetesObject & Record<string, unknown>,
);
const secondScheduler = YAML.parse(
  (secondSchedulerObjects.find((o) => o.kind === 'ConfigMap') as k8s.V1ConfigMap).data?.['config.yaml'] ?? '',
) as SchedulerConfiguration;
const secondSchedulerPod = (secondSchedulerObjects.find((o) => o.kind === 'Deployment') as k8s.V1Deployment).spec?.template
  .spec as k8s.V1PodSpec;
const snippet = YAML.parse(schedulerManifest('kube-scheduler-config.yaml')) as SchedulerConfiguration;

let chart: RenderedChart;
let apiServer: ApiServer;
let served: LiveCertificate;
let server: RunningExtenderServer;
/** The Secrets of the release namespace, as the service left them. */
const secrets = new Map<string, Record<string, string>>();

const container = (): k8s.V1Container => only<k8s.V1Deployment>(chart, 'Deployment').spec?.template.spec?.containers[0] as k8s.V1Container;
const env = (name: string): string | undefined => container().env?.find((e) => e.name === name)?.value;
const service = (): k8s.V1Service => only<k8s.V1Service>(chart, 'Service');
const secretData = (name: string): Record<string, string> => {
  const data = secrets.get(name);
  if (!data) throw new Error(`no Secret ${name} in the release namespace`);
  return data;
};

/** A file of the second scheduler's pod, read from the objects the chart renders (the Secret it mounts). */
function secondSchedulerFile(path: string): string {
  const scheduler = secondSchedulerPod.containers[0] as k8s.V1Container;
  const mount = scheduler.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
  const volume = secondSchedulerPod.volumes?.find((v) => v.name === mount?.name);
  if (!mount || !volume?.secret?.secretName) throw new Error(`${path} is on no Secret volume of the second scheduler`);
  const relative = path.slice(mount.mountPath.length + 1);
  const key = volume.secret.items?.find((i) => i.path === relative)?.key ?? relative;
  const content = secretData(volume.secret.secretName)[key];
  if (content === undefined) throw new Error(`Secret ${volume.secret.secretName} has no key ${key}`);
  return content;
}

/** Cluster DNS for the chart's Service only: <name>.<namespace>.svc:<port> reaches the extender on loopback. */
function resolveChartService(url: URL): URL {
  const svc = service();
  const port = svc.spec?.ports?.find((p) => p.port === Number(url.port));
  if (url.hostname !== `${svc.metadata?.name}.${svc.metadata?.namespace}.svc` || port?.targetPort !== 'https-extender') {
    throw new Error(`${url.host} is not the chart's extender Service port`);
  }
  const resolved = new URL(url.href);
  resolved.hostname = '127.0.0.1';
  resolved.port = String(server.port);
  return resolved;
}

const GiB = 2 ** 30;
const view = new Map<string, ExtenderNode>([
  [
    'worker-1',
    { labels: {}, taints: [], allocatable: { cpu: 4000, memory: 8 * GiB, pods: 110 }, requested: {}, pricePerHour: 0.1, state: 'ok' },
  ],
]);
const pod: k8s.V1Pod = {
  metadata: { name: 'web-0', namespace: 'default', uid: 'u-1' },
  spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '1' } } }] },
};
const nodes: k8s.V1Node[] = [{ metadata: { name: 'worker-1' } }];

beforeAll(async () => {
  chart = await render(valuesFor('ovhcloud', 'selfSigned'), { releaseName: 'karpenter-eu', namespace: 'karpenter' });
  apiServer = await startApiServer({ namespaces: ['default', 'kube-system', 'karpenter'] });
  // The service as the chart configures it makes its certificate; the extender serves it.
  served = new LiveCertificate();
  const options = chartCertificateOptions(chart);
  await new CertificateController({
    ...options,
    kube: createKube(apiServer.kubeConfig),
    clock: new SystemClock(),
    logger: silentLogger,
    servingValidityDays: ServingValidityDays,
    resyncMs: 60_000,
    onCertificate: (certificate) => served.set(certificate),
  }).prepare();
  const stored = await apiServer.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespacedSecret(options.secret);
  secrets.set(
    options.secret.name,
    Object.fromEntries(Object.entries(stored.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])),
  );
  server = await createExtenderServer({ view, onNeedsCapacity: () => undefined, tls: served }).listen(0, '127.0.0.1');
});

afterAll(async () => {
  await server?.close();
  await apiServer?.close();
});

describe.each([
  ['second-scheduler.yaml', () => secondScheduler.extenders[0] as ExtenderConfigurationEntry],
  // The snippet leaves caData for the user to fill "from the Secret's ca.crt", as its comment says.
  [
    'kube-scheduler-config.yaml',
    () => ({
      ...(snippet.extenders[0] as ExtenderConfigurationEntry),
      tlsConfig: {
        ...snippet.extenders[0]?.tlsConfig,
        caData: Buffer.from(secretData('karpenter-eu-cert')['ca.crt'] ?? '').toString('base64'),
      },
    }),
  ],
])('the chart and %s agree on the extender', (_file, entry) => {
  it('HTTPS on the Service port that targets the extender, with the certificate the service makes for that Service', () => {
    const url = new URL(entry().urlPrefix);
    expect(url.protocol).toBe('https:');
    expect(entry().enableHTTPS).toBe(true);
    expect(env('CERT_SERVICE')).toBe(service().metadata?.name);
    const port = service().spec?.ports?.find((p) => p.port === Number(url.port));
    expect(port?.targetPort).toBe('https-extender');
    expect(container().ports?.find((p) => p.name === 'https-extender')?.containerPort).toBe(Number(url.port));
    const serving = new X509Certificate(served.current().certPem);
    expect(serving.checkHost(entry().tlsConfig?.serverName ?? '')).toBe(entry().tlsConfig?.serverName);
    expect(env('CERT_SECRET')).toBe('karpenter-eu-cert');
  });

  it('the simulated scheduler reaches the extender with exactly this configuration over verified TLS', async () => {
    const config = extenderFromConfiguration(entry(), { readFile: secondSchedulerFile, resolve: resolveChartService });
    expect(config.tlsConfig?.insecure).toBe(false);
    const client = new ExtenderClient(config);
    expect((await client.filter(pod, nodes)).feasible).toEqual(['worker-1']);
    expect([...(await client.prioritize(pod, nodes)).keys()]).toEqual(['worker-1']);
  });

  it('a CA another component of the process trusts process-wide (the OVH emulator in the demo) does not replace the configured one', async () => {
    const config = extenderFromConfiguration(entry(), { readFile: secondSchedulerFile, resolve: resolveChartService });
    const before = globalAgent.options.ca;
    globalAgent.options.ca = [(await createCertificateAuthority('process-wide-ca')).certPem];
    try {
      expect((await new ExtenderClient(config).filter(pod, nodes)).feasible).toEqual(['worker-1']);
    } finally {
      globalAgent.options.ca = before;
    }
  });

  it('a scheduler trusting another CA is refused: the CA in the configuration is what is checked', async () => {
    const otherCa = (await createCertificateAuthority('other-ca')).certPem;
    const config = extenderFromConfiguration(
      { ...entry(), tlsConfig: { ...entry().tlsConfig, caFile: undefined, caData: Buffer.from(otherCa).toString('base64') } },
      { readFile: secondSchedulerFile, resolve: resolveChartService },
    );
    await expect(new ExtenderClient(config).filter(pod, nodes)).rejects.toThrow(/certificate/);
  });
});
