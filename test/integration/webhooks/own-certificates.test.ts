// The service's own certificates (selfSigned mode) on the simulated cluster: the controller configured exactly as the
// chart's Deployment configures it (its env parsed by the service's own option parser), the chart's webhook
// configurations installed without a caBundle, and the simulated API server calling the webhook by its Service name
// and checking the certificate for <service>.<namespace>.svc against the caBundle, as kube-apiserver does.
// The controller's clock starts 0.9 of a serving lifetime in the past, so every certificate it issues (before and
// after a renewal) is valid for the real clock that TLS checks it with.
import { connect } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CertificateController } from '../../../src/controllers/certificates/certificate-controller.js';
import { createKube } from '../../../src/kube/client.js';
import { Resources } from '../../../src/kube/resources.js';
import { ServingValidityDays } from '../../../src/operator/certificate-options.js';
import type { CertificateOptions } from '../../../src/operator/options.js';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { createAdmissionServer, InMemoryContextProvider, type RunningAdmissionServer } from '../../../webhooks/admission/index.js';
import { createExtenderServer, type RunningExtenderServer } from '../../../webhooks/extender/index.js';
import { LiveCertificate } from '../../../webhooks/shared/certificate-source.js';
import { chartCertificateOptions, ofKind, render, valuesFor } from '../../chart/chart-fixtures.js';
import { catalogs, defaults, nodePool, ovhClass } from '../../unit/domain/admission/fixtures.js';

const DayMs = 86_400_000;
const ServingMs = ServingValidityDays * DayMs;
const ResyncMs = 60_000;
const serviceName = 'karpenter-eu.karpenter.svc';

type Json = Record<string, unknown>;

/** The chart's certificate options (selfSigned, the default mode) and its webhook configurations. */
async function chartCertificates(): Promise<{ options: CertificateOptions; configurations: Json[] }> {
  const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
  const configurations = [...ofKind<Json>(chart, 'MutatingWebhookConfiguration'), ...ofKind<Json>(chart, 'ValidatingWebhookConfiguration')];
  return { options: chartCertificateOptions(chart), configurations };
}

interface Replica {
  live: LiveCertificate;
  controller: CertificateController;
  admission?: RunningAdmissionServer;
  extender?: RunningExtenderServer;
  /** Listens with the certificate the controller made, and runs the controller's loop from `recheckAt`. */
  serve(recheckAt: number): Promise<void>;
  stop(): Promise<void>;
}

interface World {
  api: ApiServer;
  clock: FakeClock;
  options: CertificateOptions;
  replicas: Replica[];
  /** The replica the Service sends the API server's webhook calls to. */
  endpoint?: RunningAdmissionServer;
  close(): Promise<void>;
}

let world: World | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

const yamlDocs = (file: string): Json[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Json);

async function startWorld(): Promise<World> {
  const { options, configurations } = await chartCertificates();
  const w = { options, replicas: [] as Replica[] } as Partial<World> & { replicas: Replica[] };
  const api = await startApiServer({
    namespaces: ['default', 'kube-system', 'karpenter'],
    resolveService: (svc) => (svc.name === 'karpenter-eu' && w.endpoint ? `${w.endpoint.url}${svc.path ?? '/'}` : undefined),
    verifyServiceNames: true,
  });
  const custom = api.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  for (const file of ['manifests/crds/karpenter.sh_nodepools.yaml', 'manifests/crds/karpenter.ovhcloud.sh_ovhnodeclasses.yaml'])
    for (const body of yamlDocs(file))
      await custom.createClusterCustomObject({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', body });
  for (const body of configurations) {
    const plural = body.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
    await custom.createClusterCustomObject({ group: 'admissionregistration.k8s.io', version: 'v1', plural, body });
  }
  await api.settle();
  Object.assign(w, {
    api,
    clock: new FakeClock(Date.now() - 0.9 * ServingMs),
    close: async () => {
      for (const r of w.replicas) await r.stop();
      await api.close();
    },
  });
  world = w as World;
  return world;
}

/** One replica of the service: its controller and, once `serve` is called, its two HTTPS servers and its renewal loop. */
function replica(w: World): Replica {
  const live = new LiveCertificate();
  const controller = new CertificateController({
    ...w.options,
    kube: createKube(w.api.kubeConfig),
    clock: w.clock,
    logger: silentLogger,
    servingValidityDays: ServingValidityDays,
    resyncMs: ResyncMs,
    onCertificate: (certificate) => live.set(certificate),
  });
  const runs = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const r: Replica = {
    live,
    controller,
    serve: async (recheckAt) => {
      const contextProvider = new InMemoryContextProvider({ objects: [ovhClass('default')], catalogs, defaults });
      r.admission = await createAdmissionServer({ tls: live, contextProvider }).listen(0);
      r.extender = await createExtenderServer({ view: new Map(), onNeedsCapacity: () => undefined, tls: live }).listen(0);
      running = controller.start(runs.signal, recheckAt);
    },
    stop: async () => {
      runs.abort();
      await running;
      await r.admission?.close();
      await r.extender?.close();
    },
  };
  w.replicas.push(r);
  return r;
}

async function secret(w: World): Promise<{ ca: string; cert: string; resourceVersion: string }> {
  const found = await w.api.kubeConfig
    .makeApiClient(k8s.CoreV1Api)
    .readNamespacedSecret({ name: w.options.secret.name, namespace: 'karpenter' });
  const data = found.data ?? {};
  const decode = (key: string): string => Buffer.from(data[key] ?? '', 'base64').toString('utf8');
  return { ca: decode('ca.crt'), cert: decode('tls.crt'), resourceVersion: found.metadata?.resourceVersion ?? '' };
}

/** Every caBundle of the chart's webhook configurations, decoded. */
async function caBundles(w: World): Promise<string[]> {
  const kube = createKube(w.api.kubeConfig);
  const bundles: string[] = [];
  for (const [resource, names] of [
    [Resources.MutatingWebhookConfiguration, w.options.webhookConfigurations.mutating],
    [Resources.ValidatingWebhookConfiguration, w.options.webhookConfigurations.validating],
  ] as const) {
    for (const name of names) {
      const config = await kube.get<k8s.V1ValidatingWebhookConfiguration>(resource, { name });
      for (const hook of config.webhooks ?? []) bundles.push(Buffer.from(hook.clientConfig.caBundle ?? '', 'base64').toString('utf8'));
    }
  }
  return bundles;
}

/** The certificate a server presents to a client that dials it by the Service name and trusts only `ca`. */
function servedCertificate(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: serviceName, ca }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.on('error', reject);
  });
}

const fingerprint = (pem: string): string => new X509Certificate(pem).fingerprint256;

/** A NodePool written through the API server: the chart's webhooks are called over TLS checked against the caBundle. */
async function createNodePool(w: World, name: string): Promise<string> {
  const custom = w.api.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  return custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body: nodePool(name) }).then(
    () => 'admitted',
    (error: { body?: string }) => (JSON.parse(error.body ?? '{}') as { message?: string }).message ?? String(error),
  );
}

async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not reached`);
}

/** Steps the clock once every replica's loop is parked on it. */
async function step(w: World, ms: number): Promise<void> {
  await eventually(async () => (w.clock.waiting >= w.replicas.length ? true : undefined), 'the controllers waiting on the clock');
  w.clock.step(ms);
}

describe("the service's own certificates on the simulated cluster", () => {
  it('first start: two replicas racing make one CA, both serve its certificate, and the webhooks are called through it', async () => {
    const w = await startWorld();
    const [a, b] = [replica(w), replica(w)];
    expect(await createNodePool(w, 'before')).toContain('has no endpoint on this test bed');
    const [atA, atB] = await Promise.all([a.controller.prepare(), b.controller.prepare()]);
    const stored = await secret(w);
    expect(a.live.current().certPem).toBe(stored.cert);
    expect(b.live.current().certPem).toBe(stored.cert);
    expect(new X509Certificate(stored.cert).checkIssued(new X509Certificate(stored.ca))).toBe(true);
    expect(new X509Certificate(stored.cert).subjectAltName).toContain(`DNS:${serviceName}`);
    expect(await caBundles(w)).toEqual(Array(4).fill(stored.ca));
    await a.serve(atA);
    await b.serve(atB);
    w.endpoint = a.admission;
    expect(await createNodePool(w, 'first')).toBe('admitted');
    for (const server of [a.admission, a.extender, b.admission, b.extender])
      expect(await servedCertificate(server?.port ?? 0, stored.ca)).toBe(fingerprint(stored.cert));
  });

  it('restart: a new process keeps the CA and the serving certificate, writing nothing', async () => {
    const w = await startWorld();
    await replica(w).controller.prepare();
    const before = await secret(w);
    const restarted = replica(w);
    await restarted.controller.prepare();
    const after = await secret(w);
    expect(after).toEqual(before);
    expect(restarted.live.current().certPem).toBe(before.cert);
    expect(await caBundles(w)).toEqual(Array(4).fill(before.ca));
  });

  it('rotation: with a third of its life left the serving certificate is renewed from the same CA, and every server serves the new one', async () => {
    const w = await startWorld();
    const [a, b] = [replica(w), replica(w)];
    const [atA, atB] = await Promise.all([a.controller.prepare(), b.controller.prepare()]);
    await a.serve(atA);
    await b.serve(atB);
    w.endpoint = b.admission;
    const first = await secret(w);
    await step(w, ResyncMs);
    expect((await secret(w)).cert).toBe(first.cert);
    await step(w, 0.8 * ServingMs);
    const renewed = await eventually(async () => {
      const now = await secret(w);
      return now.cert !== first.cert && a.live.current().certPem === now.cert && b.live.current().certPem === now.cert ? now : undefined;
    }, 'the serving certificate renewed on both replicas');
    expect(renewed.ca).toBe(first.ca);
    expect(new X509Certificate(renewed.cert).checkIssued(new X509Certificate(first.ca))).toBe(true);
    for (const server of [a.admission, a.extender, b.admission, b.extender])
      expect(await servedCertificate(server?.port ?? 0, first.ca)).toBe(fingerprint(renewed.cert));
    expect(await caBundles(w)).toEqual(Array(4).fill(first.ca));
    expect(await createNodePool(w, 'after-renewal')).toBe('admitted');
  });

  it('a deleted Secret is made again with a new CA, the caBundles follow it and the webhooks keep working', async () => {
    const w = await startWorld();
    const a = replica(w);
    await a.serve(await a.controller.prepare());
    w.endpoint = a.admission;
    const first = await secret(w);
    await w.api.kubeConfig.makeApiClient(k8s.CoreV1Api).deleteNamespacedSecret({ name: w.options.secret.name, namespace: 'karpenter' });
    await step(w, ResyncMs);
    const remade = await eventually(async () => {
      const now = await secret(w);
      const bundles = await caBundles(w);
      return a.live.current().certPem === now.cert && bundles.every((b) => b === now.ca) ? now : undefined;
    }, 'the Secret made again and the caBundles set to its CA');
    expect(remade.ca).not.toBe(first.ca);
    expect(await servedCertificate(a.admission?.port ?? 0, remade.ca)).toBe(fingerprint(remade.cert));
    expect(await createNodePool(w, 'after-deletion')).toBe('admitted');
  });
});
