/**
 * The controllers `karpenter-eu run` (and the demo) run while leading, in start order, each adapted from
 * the operator's ControllerDeps to its own factory. Cross-controller notices go through `deps.signals`:
 * the extender and lifecycle shortages trigger the provisioner; NodeClaims created by provisioning or by
 * disruption (replacements) are launched at once.
 */
import type { Controller } from '../controllers/types.js';
import { createDisruptionController } from '../controllers/disruption/index.js';
import { createGarbageCollectionController } from '../controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { createLifecycleController } from '../controllers/nodeclaim/lifecycle/index.js';
import { createNodeClassFinalizerController } from '../controllers/nodeclass/finalizer-controller.js';
import { createNodeClassStatusController } from '../controllers/nodeclass/status-controller.js';
import { createNodeHealthController } from '../controllers/node/health-controller.js';
import { createNodePoolHashController } from '../controllers/nodepool/hash-controller.js';
import { createNodePoolStatusController } from '../controllers/nodepool/status-controller.js';
import { createNodeOverlayStatusController } from '../controllers/nodeoverlay/status-controller.js';
import { createPendingPodInformer, createProvisioningController } from '../controllers/provisioning/index.js';
import { createTerminationController } from '../controllers/termination/termination-controller.js';
import type { ControllerDeps, ControllerPlugin } from './controllers.js';

/** Runs `inner` with a subscription held for exactly as long as it runs. */
function withSubscription(
  inner: Controller,
  subscribe: () => () => void,
  around?: { before(): Promise<void>; after(): Promise<void> },
): Controller {
  return {
    name: inner.name,
    async start(signal: AbortSignal): Promise<void> {
      await around?.before();
      const unsubscribe = subscribe();
      try {
        await inner.start(signal);
      } finally {
        unsubscribe();
        await around?.after();
      }
    },
  };
}

function provisioning(deps: ControllerDeps): Controller {
  const pendingPods = createPendingPodInformer({ kubeConfig: deps.kubeConfig, kube: deps.kube, clock: deps.clock, logger: deps.logger });
  const controller = createProvisioningController({
    kube: deps.kube,
    state: deps.state,
    cloudProvider: deps.cloudProvider,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    events: deps.recorder,
    pendingPods,
    onNodeClaimCreated: (nodeClaim) => deps.signals.nodeClaimCreated.emit(nodeClaim.metadata?.name ?? ''),
    options: { idleMs: deps.config.batch.idleMs, maxMs: deps.config.batch.maxMs },
  });
  return withSubscription(controller, () => deps.signals.needsCapacity.subscribe((key) => controller.trigger(key)), {
    before: () => pendingPods.start(),
    after: () => pendingPods.stop(),
  });
}

function lifecycle(deps: ControllerDeps): Controller {
  const controller = createLifecycleController({
    kube: deps.kube,
    state: deps.state,
    cloudProvider: deps.cloudProvider,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    events: deps.recorder,
    unavailableOfferings: deps.unavailableOfferings,
    onCapacityShortage: () => deps.signals.needsCapacity.emit('capacity-shortage'),
    random: Math.random,
  });
  return withSubscription(controller, () => deps.signals.nodeClaimCreated.subscribe((name) => name && controller.enqueue(name)));
}

export const defaultControllers: readonly ControllerPlugin[] = [
  { name: 'nodeclaim.lifecycle', create: lifecycle },
  { name: 'provisioning', create: provisioning },
  {
    name: 'termination',
    create: (deps) =>
      createTerminationController({
        kube: deps.kube,
        state: deps.state,
        cloudProvider: deps.cloudProvider,
        clock: deps.clock,
        logger: deps.logger,
        metrics: deps.metrics,
        events: deps.recorder,
        random: Math.random,
      }),
  },
  {
    name: 'disruption',
    create: (deps) =>
      createDisruptionController({
        kube: deps.kube,
        state: deps.state,
        cloudProvider: deps.cloudProvider,
        clock: deps.clock,
        logger: deps.logger,
        metrics: deps.metrics,
        recorder: deps.recorder,
        onNodeClaimCreated: (name) => deps.signals.nodeClaimCreated.emit(name),
        options: {
          pollIntervalMs: deps.config.disruption.intervalMs,
          validationDelayMs: deps.config.disruption.validationDelayMs,
          driftCheckIntervalMs: deps.config.disruption.driftCheckIntervalMs,
        },
      }),
  },
  {
    name: 'node.health',
    enabled: (config) => config.featureGates.nodeRepair,
    create: (deps) =>
      createNodeHealthController({
        kube: deps.kube,
        state: deps.state,
        cloudProvider: deps.cloudProvider,
        clock: deps.clock,
        logger: deps.logger,
        metrics: deps.metrics,
        events: deps.recorder,
      }),
  },
  {
    name: 'nodeoverlay.status',
    enabled: (config) => config.featureGates.nodeOverlay,
    create: (deps) =>
      createNodeOverlayStatusController({
        kube: deps.kube,
        state: deps.state,
        cloudProvider: deps.cloudProvider,
        clock: deps.clock,
        logger: deps.logger,
      }),
  },
  {
    name: 'nodeclass.status',
    create: (deps) =>
      createNodeClassStatusController({
        kube: deps.kube,
        state: deps.state,
        clock: deps.clock,
        logger: deps.logger,
        globalCredentials: {
          ovhcloud: Boolean(deps.config.clouds.ovhcloud),
          scaleway: Boolean(deps.config.clouds.scaleway),
          outscale: Boolean(deps.config.clouds.outscale),
        },
        secretAccess: deps.config.nodeClassSecrets,
        cloudProvider: deps.cloudProvider,
      }),
  },
  {
    name: 'nodepool.status',
    create: (deps) => createNodePoolStatusController({ kube: deps.kube, state: deps.state, clock: deps.clock, logger: deps.logger }),
  },
  {
    name: 'nodepool.hash',
    create: (deps) => createNodePoolHashController({ kube: deps.kube, state: deps.state, clock: deps.clock, logger: deps.logger }),
  },
  {
    name: 'nodeclass.finalizer',
    create: (deps) =>
      createNodeClassFinalizerController({
        kube: deps.kube,
        state: deps.state,
        clock: deps.clock,
        kinds: deps.cloudProvider.getSupportedNodeClasses(),
        logger: deps.logger,
      }),
  },
  {
    name: 'nodeclaim.garbagecollection',
    create: (deps) =>
      createGarbageCollectionController({
        kube: deps.kube,
        state: deps.state,
        cloudProvider: deps.cloudProvider,
        clock: deps.clock,
        logger: deps.logger,
        metrics: deps.metrics,
        events: deps.recorder,
        options: { intervalMs: deps.config.garbageCollection.intervalMs },
      }),
  },
];
