/**
 * Garbage collection both ways, periodically on the Clock:
 * (a) instances the cloud lists for this cluster with no NodeClaim, past the grace period → CloudProvider.delete;
 * (b) launched NodeClaims whose instance the listing lacks AND the cloud's get calls not-found on two
 *     consecutive passes → the NodeClaim is deleted with reason `garbage_collected` (termination then removes
 *     its Node and finalizer).
 * (c) claim resources (Outscale flexible GPUs) no instance holds whose NodeClaim is gone, orphaned over
 *     consecutive passes for the grace period → deleted (`claim-resources.ts`).
 * Order matters: the cloud is listed first and the NodeClaims read fresh from the API after, so a NodeClaim
 * created meanwhile is seen. A listing that fails, times out or is partial deletes nothing: metric, Event, log.
 * Nor does one that shrank sharply since the last (`listing-shrink.ts`) until the next pass confirms it.
 */
import type { V1Node } from '@kubernetes/client-node';
import { DeletionReasons } from '../../../apis/v1/deletion-reasons.js';
import { NodeClaimApiVersion, NodeClaimKind, type NodeClaim } from '../../../apis/v1/nodeclaim.js';
import { isNodeClaimNotFoundError } from '../../../cloudprovider/errors.js';
import type { CloudProvider } from '../../../cloudprovider/types.js';
import {
  confirmMissing,
  decideGarbageCollection,
  DefaultGarbageCollectionGracePeriodMs,
  DefaultShrinkRule,
  forgetDeleted,
  judgeListingShrink,
  type ListedInstance,
  type ListingMemory,
  type NodeClaimView,
  type ShrinkRule,
} from '../../../domain/termination/index.js';
import type { EventRecorder, InvolvedObject } from '../../../kube/events.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import type { Metrics } from '../../../metrics/registry.js';
import type { ClusterState } from '../../../state/cluster-state.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/logger.js';
import { deleteNode, deleteNodeClaimWithReason } from '../../termination/object-operations.js';
import { nodeClaimObject } from '../../termination/termination-reporting.js';
import type { Controller } from '../../types.js';
import { createClaimResourceSweeper } from './claim-resources.js';
import { readCloudListing } from './cloud-listing.js';
import { garbageCollectionMetrics, type GarbageCollectionMetrics } from './metrics.js';

export interface GarbageCollectionOptions {
  /** Fixed time between passes; unset: 10 s for the first 20 passes, then 2 min (upstream's AWS schedule). */
  intervalMs?: number;
  /** Instances and NodeClaims younger than this are never collected; default 30 s. */
  gracePeriodMs?: number;
  /** A cloud List slower than this counts as failed; default 60 s. */
  listTimeoutMs?: number;
  /** What Events about a pass (not about one object) are attached to; default the `default` Namespace. */
  eventObject?: InvolvedObject;
  /** When a shrinking listing waits for a confirming one; default more than half and at least 3 gone. */
  shrinkRule?: ShrinkRule;
}

export interface GarbageCollectionControllerDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  events: EventRecorder;
  options?: GarbageCollectionOptions;
}

export interface PassReport {
  skipped?: string;
  instancesDeleted: string[];
  nodeClaimsDeleted: string[];
  /** NodeClaims the cloud called missing once; deleted if it says so again next pass. */
  nodeClaimsSuspected: string[];
  /** Ids of claim resources (flexible GPUs) deleted as orphans. */
  claimResourcesDeleted?: string[];
}

export interface GarbageCollectionController extends Controller {
  reconcileOnce(): Promise<PassReport>;
}

const fastPasses = 20;
const fastIntervalMs = 10_000;
const slowIntervalMs = 120_000;

function parseTime(stamp: unknown): number {
  return stamp === undefined || stamp === null ? Number.NaN : Date.parse(String(stamp));
}

function isReady(node: V1Node | undefined): boolean {
  return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function leakedNodeClaim(instance: ListedInstance): NodeClaim {
  // The CloudProvider deletes by status.providerID; the name only labels its logs.
  return {
    apiVersion: NodeClaimApiVersion,
    kind: NodeClaimKind,
    metadata: { name: instance.nodeClaimName ?? instance.providerID },
    spec: { nodeClassRef: { group: '', kind: '', name: '' }, requirements: [] },
    status: { providerID: instance.providerID },
  };
}

export function createGarbageCollectionController(deps: GarbageCollectionControllerDeps): GarbageCollectionController {
  const logger = deps.logger.child({ controller: 'nodeclaim.garbagecollection', provider: deps.cloudProvider.name });
  const gcMetrics: GarbageCollectionMetrics = garbageCollectionMetrics(deps.metrics.registry);
  const gracePeriodMs = deps.options?.gracePeriodMs ?? DefaultGarbageCollectionGracePeriodMs;
  const eventObject = deps.options?.eventObject ?? { apiVersion: 'v1', kind: 'Namespace', name: 'default' };
  let previouslyMissing: ReadonlySet<string> = new Set();
  let listingMemory: ListingMemory = { awaitingConfirmation: false };
  const claimResources = createClaimResourceSweeper({
    cloudProvider: deps.cloudProvider,
    clock: deps.clock,
    logger,
    gracePeriodMs,
    // The cloud that listed it, also behind the router that serves several.
    onDeleted: (r) => gcMetrics.claimResourcesDeleted.inc({ provider: r.provider, kind: r.kind }),
  });
  let completedPasses = 0;

  function skip(reason: string, detail: string, error?: unknown): PassReport {
    previouslyMissing = new Set(); // consecutive means consecutive readable passes
    claimResources.forget();
    gcMetrics.skippedPasses.inc({ reason, provider: deps.cloudProvider.name });
    logger.error('garbage collection deleted nothing: the listing cannot be trusted', { skipReason: reason, detail, error });
    void deps.events.publish({
      involvedObject: eventObject,
      type: 'Warning',
      reason: 'GarbageCollectionSkipped',
      message: `Garbage collection deleted nothing (${deps.cloudProvider.name}): ${detail}`,
    });
    return { skipped: `${reason}: ${detail}`, instancesDeleted: [], nodeClaimsDeleted: [], nodeClaimsSuspected: [] };
  }

  function viewOf(claim: NodeClaim): NodeClaimView {
    const providerID = claim.status?.providerID;
    const view: NodeClaimView = {
      name: claim.metadata?.name ?? '',
      createdAt: parseTime(claim.metadata?.creationTimestamp),
      deleting: claim.metadata?.deletionTimestamp !== undefined && claim.metadata?.deletionTimestamp !== null,
      nodeReady: providerID ? isReady(deps.state.nodeByProvider(providerID)) : false,
    };
    if (providerID) view.providerID = providerID;
    return view;
  }

  async function deleteLeakedInstance(instance: ListedInstance): Promise<boolean> {
    try {
      await deps.cloudProvider.delete(leakedNodeClaim(instance));
    } catch (error) {
      if (!isNodeClaimNotFoundError(error)) {
        logger.warn('deleting leaked instance failed, retrying next pass', { providerID: instance.providerID, error });
        return false;
      }
    }
    gcMetrics.instancesDeleted.inc({ provider: deps.cloudProvider.name });
    logger.info('deleted leaked instance', {
      providerID: instance.providerID,
      nodeClaim: instance.nodeClaimName,
      reason: DeletionReasons.garbageCollected,
    });
    const node = deps.state.nodeByProvider(instance.providerID);
    if (node) {
      await deleteNode(deps.kube, node.metadata?.name ?? '');
      void deps.events.publish({
        involvedObject: { apiVersion: 'v1', kind: 'Node', name: node.metadata?.name ?? '' },
        type: 'Normal',
        reason: 'GarbageCollected',
        message: `Instance ${instance.providerID} had no NodeClaim: deleted (reason garbage_collected)`,
      });
    }
    return true;
  }

  /** Asks the cloud about each suspect; returns those it calls not-found now. */
  async function missingNow(suspects: readonly string[], byName: Map<string, NodeClaim>): Promise<string[]> {
    const missing: string[] = [];
    await Promise.all(
      suspects.map(async (name) => {
        const providerID = byName.get(name)?.status?.providerID ?? '';
        try {
          await deps.cloudProvider.get(providerID);
        } catch (error) {
          if (isNodeClaimNotFoundError(error)) missing.push(name);
          else logger.warn('checking instance failed, not counting it as missing', { nodeClaim: name, providerID, error });
        }
      }),
    );
    return missing.sort();
  }

  async function collectNodeClaim(claim: NodeClaim): Promise<void> {
    const name = claim.metadata?.name ?? '';
    logger.info('instance gone, deleting nodeclaim', {
      nodeClaim: name,
      providerID: claim.status?.providerID,
      reason: DeletionReasons.garbageCollected,
    });
    await deleteNodeClaimWithReason(deps.kube, claim, DeletionReasons.garbageCollected);
    void deps.events.publish({
      involvedObject: nodeClaimObject(claim),
      type: 'Normal',
      reason: 'GarbageCollected',
      message: `Instance ${claim.status?.providerID ?? ''} no longer exists: deleting (reason garbage_collected)`,
    });
  }

  async function reconcileOnce(): Promise<PassReport> {
    const { listing, error } = await readCloudListing(deps.cloudProvider, deps.clock, deps.options?.listTimeoutMs ?? 60_000);
    if (listing.kind !== 'complete') return skip(`list_${listing.kind}`, listing.reason, error);
    const shrink = judgeListingShrink(listingMemory, listing.instances, deps.options?.shrinkRule ?? DefaultShrinkRule);
    listingMemory = shrink.memory;
    if (shrink.kind === 'await-confirmation') {
      return skip(
        'list_shrank',
        `the listing lacks ${shrink.lost} of the ${shrink.trustedCount} instances of the last one; waiting for the next listing to confirm it`,
      );
    }
    const resources = await claimResources.list();
    let claims: NodeClaim[];
    try {
      claims = (await deps.kube.list<NodeClaim>(Resources.NodeClaim)).items;
    } catch (err) {
      return skip('nodeclaims_unreadable', 'listing nodeclaims failed', err);
    }
    const decision = decideGarbageCollection({ listing, nodeClaims: claims.map(viewOf), now: deps.clock.now(), gracePeriodMs });
    const byName = new Map(claims.map((c) => [c.metadata?.name ?? '', c]));
    const deleted = await Promise.all(decision.leakedInstances.map(async (i) => ((await deleteLeakedInstance(i)) ? [i.providerID] : [])));
    listingMemory = forgetDeleted(listingMemory, deleted.flat());
    const confirmation = confirmMissing(previouslyMissing, await missingNow(decision.suspectNodeClaims, byName));
    previouslyMissing = confirmation.missing;
    for (const name of confirmation.confirmed) {
      await collectNodeClaim(byName.get(name) as NodeClaim).catch((err: unknown) =>
        logger.warn('deleting nodeclaim failed, retrying next pass', { nodeClaim: name, error: err }),
      );
    }
    const resourcesDeleted = await claimResources.collect(resources, new Set(byName.keys()));
    completedPasses += 1;
    return {
      ...(resourcesDeleted.length > 0 ? { claimResourcesDeleted: resourcesDeleted } : {}),
      instancesDeleted: deleted.flat(),
      nodeClaimsDeleted: confirmation.confirmed,
      nodeClaimsSuspected: [...confirmation.missing].filter((n) => !confirmation.confirmed.includes(n)),
    };
  }

  return {
    name: 'nodeclaim.garbagecollection',
    reconcileOnce,
    async start(signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        try {
          await reconcileOnce();
        } catch (error) {
          logger.warn('garbage collection pass failed, retrying next pass', { error });
        }
        const interval = deps.options?.intervalMs ?? (completedPasses < fastPasses ? fastIntervalMs : slowIntervalMs);
        await deps.clock.sleep(interval, signal).catch(() => undefined);
      }
    },
  };
}
