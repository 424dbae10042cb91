/**
 * The composition root of `karpenter-eu run`: builds every part from the configuration (nothing is created
 * at import time), serves the webhooks, the extender and the metrics on every replica, waits for the
 * informers to sync, and runs the controllers only while leading. `stop()` is the graceful shutdown:
 * controllers stop, the lease is released, servers close, informers stop.
 */
import type { KubeConfig, KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import type { CloudName } from '../apis/v1/labels.js';
import { loadCatalog } from '../catalog/index.js';
import type { CatalogFile } from '../catalog/types.js';
import type { CloudProvider } from '../cloudprovider/types.js';
import { UnavailableOfferings } from '../cloudprovider/unavailable-offerings.js';
import type { Controller } from '../controllers/types.js';
import { createKube } from '../kube/client.js';
import { EventRecorder } from '../kube/events.js';
import type { Kube } from '../kube/types.js';
import { buildInfoLabels } from '../metrics/build-info.js';
import { recordingReconciles } from '../metrics/reconcile-context.js';
import type { ReconcileResult } from '../metrics/reconcile-metrics.js';
import { createMetrics, type Metrics, registerProcessMetrics } from '../metrics/registry.js';
import { ClusterState } from '../state/cluster-state.js';
import { createClusterStateInformers, type ClusterStateInformers } from '../state/informers.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { createAdmissionServer, type RunningAdmissionServer } from '../../webhooks/admission/index.js';
import { createExtenderServer, type RunningExtenderServer } from '../../webhooks/extender/index.js';
import { type CertificateSource, LiveCertificate, type TlsMaterial } from '../../webhooks/shared/certificate-source.js';
import { CertificateController } from '../controllers/certificates/certificate-controller.js';
import { ServingValidityDays } from './certificate-options.js';
import { stateAdmissionContext } from '../views/admission-context.js';
import { defaultingNodePoolReader } from '../views/nodepool-reader.js';
import type { AdmissionDefaults } from '../domain/admission/index.js';
import { buildCloudProvider, type CloudProviderFactories, defaultCloudProviderFactories } from './cloud-providers.js';
import { type ControllerDeps, type ControllerPlugin, enabledControllers, runControllers } from './controllers.js';
import { clusterStateExtenderView } from '../views/extender-view.js';
import { type Leadership, startLeadership } from './leadership.js';
import { type RunningMetricsServer, startMetricsServer } from './metrics-server.js';
import type { OperatorConfig } from './options.js';
import { LiveCatalogs } from '../cloudprovider/live-catalogs.js';
import { overlaidCloudProvider } from '../cloudprovider/node-overlays.js';
import { NewNodeClassNotice, readRegionLists } from './region-lists.js';
import { CatalogPriceBook } from '../views/price-book.js';
import { type ControllerSignals, createControllerSignals } from './relay.js';
import { fencedApiGuard, fencedCloudProvider, fencedKubeClient, LeadershipFence } from './fence.js';

export interface OperatorOptions {
  config: OperatorConfig;
  kubeConfig: KubeConfig;
  clock: Clock;
  logger: Logger;
  /** The controllers to run while leading, in start order. */
  controllers: readonly ControllerPlugin[];
  /** Builders of each cloud's provider from its settings (default: Scaleway and Outscale). */
  cloudProviderFactories?: CloudProviderFactories;
  /** Replaces the providers built from `config.clouds` (tests with the fake provider). */
  cloudProvider?: CloudProvider;
  /** Serving certificate given in memory instead of `config.webhook.tls` files (demo, tests). */
  webhookTls?: TlsMaterial;
  /** Aborts the start (a SIGTERM while the caches are still syncing): servers close, the start rejects. */
  signal?: AbortSignal;
  /** The source commit the service was built from (`karpenter_build_info`'s `commit`). */
  commit?: string;
}

export interface RunningOperator {
  webhookUrl: string;
  extenderUrl: string;
  metricsUrl: string;
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  metrics: Metrics;
  isLeading(): boolean;
  /** Settles when the operator ended by itself: rejects when the lease was lost or a controller failed. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

interface Servers {
  webhook: RunningAdmissionServer;
  extender: RunningExtenderServer;
  metrics: RunningMetricsServer;
}

const catalogClouds: readonly CloudName[] = ['ovhcloud', 'scaleway', 'outscale'];

function loadCatalogs(): Partial<Record<CloudName, CatalogFile>> {
  return Object.fromEntries(catalogClouds.map((cloud) => [cloud, loadCatalog(cloud)]));
}

interface Core {
  registry: Registry;
  metrics: Metrics;
  /** Unfenced: the informers, the lease loop and anything every replica does. */
  kube: Kube;
  /** Writes only while leading: what the controllers, the Event recorder and the cloud providers get. */
  leaderKube: Kube;
  fence: LeadershipFence;
  state: ClusterState;
  informers: ClusterStateInformers;
  recorder: EventRecorder;
  cloudProvider: CloudProvider;
  unavailableOfferings: UnavailableOfferings;
  signals: ControllerSignals;
  /** Admission's catalogs: bundled, then each region as the providers read it. */
  liveCatalogs: LiveCatalogs;
  /** A NodeClass this process had not seen: its credentials may read a region list none could read before. */
  nodeClassAppeared: NewNodeClassNotice;
}

/** The service's configuration as admission and the NodePool reader read it (one object for both). */
function admissionDefaults(config: OperatorOptions['config']): AdmissionDefaults {
  return {
    gpuTaint: true,
    globalCredentials: {
      ovhcloud: Boolean(config.clouds.ovhcloud),
      scaleway: Boolean(config.clouds.scaleway),
      outscale: Boolean(config.clouds.outscale),
    },
    secretAccess: config.nodeClassSecrets,
  };
}

function buildCore(options: OperatorOptions, logger: Logger): Core {
  const { config, clock } = options;
  const registry = new Registry();
  const metrics = createMetrics(registry, () => clock.now());
  registerProcessMetrics(registry);
  metrics.buildInfo.set(buildInfoLabels(options.commit), 1);
  const kube = createKube(options.kubeConfig);
  const election = config.leaderElection;
  const fence = new LeadershipFence(clock, election.enabled ? election.renewDeadlineMs : undefined);
  const leaderKube = fencedKubeClient(options.kubeConfig, fence);
  const state = new ClusterState({ clock, nominationWindowMs: 2 * config.batch.maxMs });
  const nodeClassAppeared = new NewNodeClassNotice();
  const liveCatalogs = new LiveCatalogs(loadCatalogs());
  state.setNodePoolReader(defaultingNodePoolReader(liveCatalogs, admissionDefaults(config)));
  metrics.cluster.countFrom(state);
  const informers = createClusterStateInformers({
    kubeConfig: options.kubeConfig,
    kube,
    clock,
    state,
    logger: logger.child({ component: 'informers' }),
    onRestart: (resource) => metrics.informerRestarts.inc({ resource }),
    onChange: (kind, object, deleted) => {
      observeChange(metrics, kind, object, deleted);
      if (!deleted) nodeClassAppeared.observe(kind, object);
    },
    nodeOverlays: config.featureGates.nodeOverlay,
    dynamicResources: config.featureGates.dynamicResourceAllocation,
  });
  const recorder = new EventRecorder({ kube: leaderKube, clock, component: 'karpenter', instance: config.leaderElection.identity, logger });
  const unavailableOfferings = new UnavailableOfferings({ clock });
  const recorded = liveCatalogs.recording(
    options.cloudProvider ??
      buildCloudProvider(
        config.clouds,
        {
          clusterName: config.clusterName,
          kube: leaderKube,
          state,
          clock,
          registry,
          unavailableOfferings,
          nodeClassSecrets: config.nodeClassSecrets,
          guardApi: fencedApiGuard(fence, 'cloud'),
        },
        options.cloudProviderFactories ?? defaultCloudProviderFactories,
      ),
  );
  // Admission's live catalogs record what the clouds say; the controllers see it through the overlays.
  const cloudProvider = fencedCloudProvider(
    config.featureGates.nodeOverlay
      ? overlaidCloudProvider(recorded, { overlays: () => state.nodeOverlayList(), nodePool: (name) => state.nodePool(name) })
      : recorded,
    fence,
  );
  return {
    registry,
    metrics,
    kube,
    leaderKube,
    fence,
    state,
    informers,
    recorder,
    cloudProvider,
    unavailableOfferings,
    signals: createControllerSignals(),
    liveCatalogs,
    nodeClassAppeared,
  };
}

/** The metrics counted from what the informers see: pods' start-up time and status-condition transitions. */
function observeChange(metrics: Metrics, kind: string, object: KubernetesObject, deleted: boolean): void {
  if (kind === 'Pod') metrics.podStartup.observe(object as V1Pod, deleted);
  else metrics.conditionTransitions.observe(kind.toLowerCase(), object, deleted);
}

/** While leading: the leader-only metrics on, `leader_election_master_status` 1; off again when the term ends. */
function leaderMetrics(core: Core, leaseName: string, leading: boolean): void {
  const { metrics } = core;
  // Like upstream's node metrics controller, only the leader reports per-node resources, so a sum over
  // replicas counts each node once; the same holds for pods, NodePools and status conditions.
  metrics.nodeResources.readFrom(() => (leading ? core.state.stateNodes() : []));
  metrics.cluster.readFrom(leading ? core.state : undefined);
  metrics.podStartup.setActive(leading);
  metrics.conditionTransitions.setActive(leading);
  metrics.leaderElectionMaster.set({ name: leaseName }, leading ? 1 : 0);
}

/** How often every replica checks its certificate Secret and the caBundles besides the renewal dates. */
const CertificateResyncMs = 60_000;

/** The service's own certificates, when configured: the first one made before the servers listen, then renewed. */
interface OwnCertificates {
  source: LiveCertificate;
  run(signal: AbortSignal): Promise<void>;
}

async function prepareCertificates(options: OperatorOptions, core: Core, logger: Logger): Promise<OwnCertificates | undefined> {
  const settings = options.config.certificates;
  if (!settings) return undefined;
  const source = new LiveCertificate();
  const controller = new CertificateController({
    ...settings,
    kube: core.kube,
    clock: options.clock,
    logger: logger.child({ component: 'certificates' }),
    servingValidityDays: ServingValidityDays,
    resyncMs: CertificateResyncMs,
    onCertificate: (certificate) => source.set(certificate),
  });
  const recheckAt = await controller.prepare(options.signal);
  return { source, run: (signal) => controller.start(signal, recheckAt) };
}

async function startServers(options: OperatorOptions, core: Core, logger: Logger, own?: OwnCertificates): Promise<Servers> {
  const { config } = options;
  const webhookTls: CertificateSource = options.webhookTls ?? own?.source ?? config.webhook.tls;
  const extenderTls: CertificateSource | undefined = own?.source ?? config.extender.tls;
  const catalogs = loadCatalogs();
  const onError = (error: unknown): void => logger.error('serving request', { error });
  const onRequest = (path: string, status: number, seconds: number): void =>
    core.metrics.requestDuration.observe({ path, code: String(status) }, seconds);
  const webhook = await createAdmissionServer({
    tls: webhookTls,
    contextProvider: stateAdmissionContext({ state: core.state, catalogs, live: core.liveCatalogs, defaults: admissionDefaults(config) }),
    onError,
    onRequest,
    requestBudget: config.requestBytesInFlight,
  }).listen(config.webhook.port, config.bindAddress);
  const extender = await createExtenderServer({
    view: clusterStateExtenderView(core.state, new CatalogPriceBook(catalogs), { nodeOverlays: config.featureGates.nodeOverlay }),
    onNeedsCapacity: (podKey) => core.signals.needsCapacity.emit(podKey),
    ...(extenderTls ? { tls: extenderTls } : {}),
    onError,
    onRequest,
    requestBudget: config.requestBytesInFlight,
  }).listen(config.extender.port, config.bindAddress);
  const metrics = await startMetricsServer(
    { registry: core.registry, notReadyReason: () => (core.state.synced() ? undefined : 'informer caches not synced'), onError },
    config.metrics.port,
    config.bindAddress,
  );
  return { webhook, extender, metrics };
}

async function closeServers(servers: Partial<Servers>): Promise<void> {
  await Promise.allSettled([servers.webhook?.close(), servers.extender?.close(), servers.metrics?.close()]);
}

function controllerDeps(options: OperatorOptions, core: Core, logger: Logger): ControllerDeps {
  return {
    config: options.config,
    kube: core.leaderKube,
    kubeConfig: options.kubeConfig,
    state: core.state,
    cloudProvider: core.cloudProvider,
    clock: options.clock,
    logger,
    metrics: core.metrics,
    recorder: core.recorder,
    unavailableOfferings: core.unavailableOfferings,
    signals: core.signals,
  };
}

export async function startOperator(options: OperatorOptions): Promise<RunningOperator> {
  const logger = options.logger;
  const core = buildCore(options, logger);
  const own = await prepareCertificates(options, core, logger);
  const servers = await startServers(options, core, logger, own);
  const certificateRuns = new AbortController();
  const certificates = own?.run(certificateRuns.signal) ?? Promise.resolve();
  try {
    await core.informers.start();
    await core.informers.waitForSync(options.signal);
  } catch (error) {
    certificateRuns.abort();
    await Promise.allSettled([core.informers.stop(), closeServers(servers), certificates]);
    throw error;
  }
  core.metrics.clusterStateSynced.set(1);
  logger.info('caches synced', { ...core.state.counts() });
  const deps = controllerDeps(options, core, logger);
  const leaseName = options.config.leaderElection.leaseName;
  leaderMetrics(core, leaseName, false);
  const regionReads = new AbortController();
  const regionLists = readRegionLists(
    {
      provider: core.cloudProvider,
      live: core.liveCatalogs,
      clock: options.clock,
      logger: logger.child({ component: 'region-lists' }),
      wake: core.nodeClassAppeared,
    },
    regionReads.signal,
  );
  const leadership: Leadership = startLeadership({
    config: options.config.leaderElection,
    kube: core.kube,
    clock: options.clock,
    logger,
    fence: core.fence,
    lead: (signal) => {
      // Built per term: a new term starts from fresh controller state.
      const controllers: Controller[] = enabledControllers(options.controllers, deps.config).map((plugin) => plugin.create(deps));
      leaderMetrics(core, leaseName, true);
      const record = (controller: string, result: ReconcileResult, seconds: number): void =>
        core.metrics.reconciles.record(controller, result, seconds);
      return recordingReconciles(record, () => runControllers(controllers, signal, logger)).finally(() =>
        leaderMetrics(core, leaseName, false),
      );
    },
  });
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      logger.info('shutting down');
      regionReads.abort();
      certificateRuns.abort();
      await leadership.stop();
      await regionLists;
      await certificates;
      await closeServers(servers);
      await core.informers.stop();
      logger.info('shut down');
    })());
  return {
    webhookUrl: servers.webhook.url,
    extenderUrl: servers.extender.url,
    metricsUrl: servers.metrics.url,
    kube: core.kube,
    state: core.state,
    cloudProvider: core.cloudProvider,
    metrics: core.metrics,
    isLeading: () => leadership.isLeading(),
    done: leadership.done,
    stop,
  };
}
