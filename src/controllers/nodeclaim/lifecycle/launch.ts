/**
 * Launch (Karpenter's lifecycle `launch.go`): CloudProvider.create until the launch is recorded. Before the
 * first create the NodeClaim is annotated with the intent. A NodeClaim carrying that annotation (a restart,
 * or a status write that failed after create) goes through create again: create is idempotent and resuming
 * per the port's contract, so it finds what the cloud half did and finishes it (power on, user data, GPUs)
 * — an instance merely found by name could be stopped, without user data or without its GPU.
 * Insufficient capacity marks the offering unavailable and deletes the NodeClaim so its pods are re-planned
 * onto the next cheapest offering; other failures are retried with backoff and shown as Events.
 */
import { type NodeClaim } from '../../../apis/index.js';
import { CreatePendingError, findInChain, InsufficientCapacityError } from '../../../cloudprovider/errors.js';
import type { CloudNodeClaim, CloudProvider } from '../../../cloudprovider/types.js';
import type { UnavailableOfferings } from '../../../cloudprovider/unavailable-offerings.js';
import { ConditionLaunched } from '../../../domain/provisioning/index.js';
import { formatResourceList } from '../../../domain/quantity/index.js';
import type { EventRecorder } from '../../../kube/events.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/logger.js';
import { DeletionReasons } from '../../../apis/v1/deletion-reasons.js';
import { deleteWithReason, nodeClaimRef, patchStatus } from './claim-writes.js';

/** Written before the first create: "a create may have happened; look in the cloud before creating". */
export const AnnotationLaunchRequested = 'karpenter-eu.io/launch-requested';

/** Deletion reason of a NodeClaim whose every offering was out of stock. */
export const ReasonInsufficientCapacity = DeletionReasons.insufficientCapacity;

export interface LaunchDeps {
  kube: Kube;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  events?: EventRecorder;
  unavailableOfferings?: UnavailableOfferings;
  /** A NodeClaim was deleted for lack of capacity: its pods need a new plan. */
  onCapacityShortage?: () => void;
}

/** `resumed`: a launch was requested before (a restart or a lost status write); create finished it. */
/** `pending`: the cloud cannot tell yet whether an earlier create made an instance; look again at `retryAt`. */
export type LaunchOutcome =
  | { kind: 'launched'; claim: NodeClaim; resumed: boolean }
  | { kind: 'deleted' }
  | { kind: 'pending'; retryAt: number; reason: string }
  | { kind: 'failed'; error: Error };

/** Launched=False reason while a create waits for the cloud's listing to show what an earlier create made. */
export const ReasonAwaitingListing = 'AwaitingInstanceListing';

export async function launch(deps: LaunchDeps, claim: NodeClaim): Promise<LaunchOutcome> {
  const name = claim.metadata?.name ?? '';
  const resumed = claim.metadata?.annotations?.[AnnotationLaunchRequested] !== undefined || Boolean(claim.status?.providerID);
  let instance: CloudNodeClaim;
  try {
    if (!resumed) await markLaunchRequested(deps, claim);
    instance = await deps.cloudProvider.create(claim);
  } catch (error) {
    return launchFailed(deps, claim, error as Error);
  }
  if (resumed) deps.logger.info('resumed a launch requested before', { nodeclaim: name, providerID: instance.providerID });
  const launched = await recordLaunch(deps, claim, instance);
  void deps.events?.publish({
    involvedObject: nodeClaimRef(claim),
    type: 'Normal',
    reason: 'Launched',
    message: `Status condition transitioned, Type: Launched, Status: True, instance ${instance.providerID} (${instance.instanceType} in ${instance.zone})`,
  });
  return { kind: 'launched', claim: launched, resumed };
}

async function markLaunchRequested(deps: LaunchDeps, claim: NodeClaim): Promise<void> {
  const annotations = { [AnnotationLaunchRequested]: new Date(deps.clock.now()).toISOString() };
  await deps.kube.patch(Resources.NodeClaim, { name: claim.metadata?.name ?? '' }, { type: 'merge', body: { metadata: { annotations } } });
}

async function recordLaunch(deps: LaunchDeps, claim: NodeClaim, instance: CloudNodeClaim): Promise<NodeClaim> {
  const key = { name: claim.metadata?.name ?? '' };
  // Labels first: once Launched is True, registration copies the NodeClaim's labels to the Node.
  await deps.kube.patch(Resources.NodeClaim, key, { type: 'merge', body: { metadata: { labels: { ...instance.labels } } } });
  return patchStatus(
    deps.kube,
    claim,
    deps.clock.now(),
    {
      providerID: instance.providerID,
      capacity: formatResourceList(instance.capacity),
      allocatable: formatResourceList(instance.allocatable),
      ...(instance.imageID ? { imageID: instance.imageID } : {}),
    },
    [{ type: ConditionLaunched, status: 'True', reason: 'Launched', message: '' }],
  );
}

async function launchFailed(deps: LaunchDeps, claim: NodeClaim, error: Error): Promise<LaunchOutcome> {
  const name = claim.metadata?.name ?? '';
  const pending = findInChain(error, CreatePendingError);
  if (pending) return launchPending(deps, claim, pending);
  const ice = findInChain(error, InsufficientCapacityError);
  if (ice) {
    deps.unavailableOfferings?.markFromError(ice);
    deps.logger.warn('insufficient capacity; deleting nodeclaim so its pods are re-planned', { nodeclaim: name, error: ice.message });
    void deps.events?.publish({
      involvedObject: nodeClaimRef(claim),
      type: 'Warning',
      reason: 'InsufficientCapacityError',
      message: `NodeClaim ${name} event: ${ice.message}`,
    });
    await deleteWithReason(deps.kube, deps.events, claim, ReasonInsufficientCapacity, ice.message);
    deps.onCapacityShortage?.();
    return { kind: 'deleted' };
  }
  deps.logger.warn('launching nodeclaim failed; retrying', { nodeclaim: name, error });
  void deps.events?.publish({
    involvedObject: nodeClaimRef(claim),
    type: 'Warning',
    reason: 'LaunchFailed',
    message: `launching nodeclaim: ${error.message}`,
  });
  await patchStatus(deps.kube, claim, deps.clock.now(), {}, [
    { type: ConditionLaunched, status: 'False', reason: 'LaunchFailed', message: error.message.slice(0, 1000) },
  ]).catch(() => undefined);
  return { kind: 'failed', error };
}

/** Not a failure: no Warning, no backoff; the condition says why the NodeClaim is not launched yet. */
async function launchPending(deps: LaunchDeps, claim: NodeClaim, pending: CreatePendingError): Promise<LaunchOutcome> {
  const launched = claim.status?.conditions?.find((c) => c.type === ConditionLaunched);
  if (launched?.reason !== ReasonAwaitingListing) {
    deps.logger.info('waiting for the cloud to list what an earlier create made before creating again', {
      nodeclaim: claim.metadata?.name,
      reason: pending.message,
    });
    await patchStatus(deps.kube, claim, deps.clock.now(), {}, [
      { type: ConditionLaunched, status: 'False', reason: ReasonAwaitingListing, message: pending.message.slice(0, 1000) },
    ]).catch(() => undefined);
  }
  return { kind: 'pending', retryAt: deps.clock.now() + pending.retryAfterMs, reason: pending.message };
}
