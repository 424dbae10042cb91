/**
 * Builds the CloudProvider of `run` from the operator-wide accounts: one provider per configured cloud,
 * each decorated with call metrics, behind a router when there are several. Nothing here knows whether
 * the endpoints are the real clouds or the loopback emulators: only the settings differ.
 */
import type { Registry } from 'prom-client';
import type { OutscaleNodeClass } from '../apis/v1alpha1/outscale-nodeclass.js';
import type { OVHNodeClass } from '../apis/v1alpha1/ovh-nodeclass.js';
import { createOvhClient, createOvhCloudProvider, OvhApiCalls } from '../cloudprovider/ovhcloud/index.js';
import type { ScalewayNodeClass } from '../apis/v1alpha1/scaleway-nodeclass.js';
import { loadCatalog } from '../catalog/index.js';
import { decorateWithMetrics } from '../cloudprovider/metrics.js';
import { createOutscaleCloudProvider } from '../cloudprovider/outscale/index.js';
import {
  AnnotationCreateAttempted,
  createScalewayClient,
  createScalewayCloudProvider,
  type ScalewayApi,
  ScalewayApiCalls,
} from '../cloudprovider/scaleway/index.js';
import type { ApiGuard, CloudProvider } from '../cloudprovider/types.js';
import type { UnavailableOfferings } from '../cloudprovider/unavailable-offerings.js';
import { findRegion } from '../domain/instancetypes/build.js';
import type { Kube } from '../kube/types.js';
import { Resources } from '../kube/resources.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { SecretAccessPolicy } from '../domain/secrets/secret-access.js';
import type { Clock } from '../util/clock.js';
import type { CloudSettings, OutscaleSettings, OvhSettings, ScalewaySettings } from './cloud-settings.js';
import { CloudProviderRouter, routedByName } from '../cloudprovider/cloud-provider-router.js';
import { stateNodeClassResolver } from '../views/nodeclass-resolver.js';

export interface CloudProviderDeps {
  clusterName: string;
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  registry: Registry;
  unavailableOfferings: UnavailableOfferings;
  /** Which Secrets NodeClasses may have the providers read. */
  nodeClassSecrets: SecretAccessPolicy;
  /** Wraps each cloud client so its calls that change the cloud are fenced; none: unguarded. */
  guardApi?: ApiGuard;
}

const unguarded: ApiGuard = (api) => api;

/** Builds one cloud's provider from its settings; the OVH one is passed in by whoever links it. */
export type CloudProviderFactory<S> = (settings: S, deps: CloudProviderDeps) => CloudProvider;

export interface CloudProviderFactories {
  ovhcloud?: CloudProviderFactory<OvhSettings>;
  scaleway: CloudProviderFactory<ScalewaySettings>;
  outscale: CloudProviderFactory<OutscaleSettings>;
}

export class NoCloudConfiguredError extends Error {
  constructor() {
    super(
      'building cloud providers: no cloud credentials are set; accepted: all of OVH_APPLICATION_KEY, OVH_APPLICATION_SECRET, OVH_CONSUMER_KEY; ' +
        'or SCW_ACCESS_KEY, SCW_SECRET_KEY, SCW_DEFAULT_PROJECT_ID; or OSC_ACCESS_KEY, OSC_SECRET_KEY, OSC_REGION',
    );
    this.name = 'NoCloudConfiguredError';
  }
}

export class CloudProviderUnavailableError extends Error {
  constructor(cloud: string) {
    super(
      `building cloud providers: ${cloud} credentials are set but this build has no ${cloud} provider; accepted clouds: those given a factory`,
    );
    this.name = 'CloudProviderUnavailableError';
  }
}

export const scalewayProviderFactory: CloudProviderFactory<ScalewaySettings> = (settings, deps) => {
  const catalog = loadCatalog('scaleway');
  const zones = findRegion(catalog, settings.region).zones;
  // NodeClasses with their own credentialsSecretRef get a client on the same endpoint.
  const guard = deps.guardApi ?? unguarded;
  const apiFactory = (credentials: { accessKey: string; secretKey: string; projectId: string }): ScalewayApi =>
    guard(
      createScalewayClient({ ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}), ...credentials, defaultZone: zones[0] as string }),
      ScalewayApiCalls,
    );
  return createScalewayCloudProvider({
    clusterName: deps.clusterName,
    region: settings.region,
    catalog,
    api: apiFactory(settings),
    apiFactory,
    nodeClasses: stateNodeClassResolver<ScalewayNodeClass>(deps.state, deps.kube, Resources.ScalewayNodeClass.kind, deps.nodeClassSecrets),
    unavailableOfferings: deps.unavailableOfferings,
    clock: deps.clock,
    recordCreateAttempt: async (nodeClaim, at) => {
      const annotations = { [AnnotationCreateAttempted]: new Date(at).toISOString() };
      await deps.kube.patch(
        Resources.NodeClaim,
        { name: nodeClaim.metadata?.name ?? '' },
        { type: 'merge', body: { metadata: { annotations } } },
      );
    },
  });
};

export const outscaleProviderFactory: CloudProviderFactory<OutscaleSettings> = (settings, deps) =>
  createOutscaleCloudProvider({
    client: {
      endpoint: settings.endpoint ?? `https://api.${settings.region}.outscale.com`,
      region: settings.region,
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
    },
    clusterName: deps.clusterName,
    nodeClasses: stateNodeClassResolver<OutscaleNodeClass>(deps.state, deps.kube, Resources.OutscaleNodeClass.kind, deps.nodeClassSecrets),
    clock: deps.clock,
    random: Math.random,
    unavailableOfferings: deps.unavailableOfferings,
    ...(deps.guardApi ? { guardApi: deps.guardApi } : {}),
  });

export const ovhProviderFactory: CloudProviderFactory<OvhSettings> = (settings, deps) => {
  const guard = deps.guardApi ?? unguarded;
  return createOvhCloudProvider({
    clusterName: deps.clusterName,
    api: guard(
      createOvhClient({
        endpoint: settings.endpoint,
        applicationKey: settings.applicationKey,
        applicationSecret: settings.applicationSecret,
        consumerKey: settings.consumerKey,
      }),
      OvhApiCalls,
    ),
    // NodeClasses with their own credentialsSecretRef get a client built from the Secret's settings, on the
    // operator's endpoint unless the Secret names one (the OVHcloud provider's Secrets carry only the keys).
    apiFactory: (secret) => guard(createOvhClient({ endpoint: settings.endpoint, ...secret }), OvhApiCalls),
    nodeClasses: stateNodeClassResolver<OVHNodeClass>(deps.state, deps.kube, Resources.OVHNodeClass.kind, deps.nodeClassSecrets),
    catalog: loadCatalog('ovhcloud'),
    unavailableOfferings: deps.unavailableOfferings,
    clock: deps.clock,
    ...(settings.serviceName ? { serviceName: settings.serviceName } : {}),
    ...(settings.kubeId ? { kubeId: settings.kubeId } : {}),
    ...(settings.region ? { region: settings.region } : {}),
    clusterProviderIDs: () => deps.state.stateNodes().flatMap((n) => n.node?.spec?.providerID ?? []),
  });
};

export const defaultCloudProviderFactories: CloudProviderFactories = {
  ovhcloud: ovhProviderFactory,
  scaleway: scalewayProviderFactory,
  outscale: outscaleProviderFactory,
};

/** The configured clouds' providers (metrics-decorated), routed when more than one. */
export function buildCloudProvider(
  clouds: CloudSettings,
  deps: CloudProviderDeps,
  factories: CloudProviderFactories = defaultCloudProviderFactories,
): CloudProvider {
  const providers: CloudProvider[] = [];
  if (clouds.ovhcloud) {
    if (!factories.ovhcloud) throw new CloudProviderUnavailableError('ovhcloud');
    providers.push(factories.ovhcloud(clouds.ovhcloud, deps));
  }
  if (clouds.scaleway) providers.push(factories.scaleway(clouds.scaleway, deps));
  if (clouds.outscale) providers.push(factories.outscale(clouds.outscale, deps));
  if (providers.length === 0) throw new NoCloudConfiguredError();
  const decorated = providers.map((p) => decorateWithMetrics(p, deps.registry));
  return decorated.length === 1 ? (decorated[0] as CloudProvider) : new CloudProviderRouter(decorated.map(routedByName));
}
