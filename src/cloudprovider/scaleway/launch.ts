/**
 * Launching one NodeClaim: find the server a previous attempt made (by tags) and finish it, or try the
 * cheapest compatible offerings in turn — a refused offering (out of stock at create or at poweron) goes to
 * the unavailable-offerings cache, its stopped server is deleted, and the next offering is tried.
 */
import { LabelNodePool, TaintUnregistered } from '../../apis/v1/labels.js';
import type { ScalewayNodeClass } from '../../apis/v1alpha1/scaleway-nodeclass.js';
import type { InstanceType, LaunchCandidate } from '../../domain/instancetypes/index.js';
import { CreatePendingError, InsufficientCapacityError, NodeClassNotReadyError, findInChain, type OfferingKey } from '../errors.js';
import type { CloudProviderNodeClaim, NodeClassResolver } from '../types.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import type { CreateServerRequest, ScalewayServer } from './api.js';
import { ListingRecheckMs, listingWaitMs, type CreateAttempts } from './create-window.js';
import { CreateOutcomeUnknownError, rootVolumeName, type LaunchSteps, type ScalewayInstances } from './instances.js';
import { MissingJoinTokenError, renderUserData, userDataHash, type NodeTaint } from './nodeclass.js';
import { launchCandidates } from './offerings.js';
import { formatProviderID, type ServerLocation } from './provider-id.js';
import { launchTags, nodeClaimLookupTags } from './tags.js';

/** Offerings tried per create call; more would hold the NodeClaim for long against a cloud in shortage. */
export const MaxOfferingsPerLaunch = 3;
const GiB = 2 ** 30;
const DefaultRootVolumeGiB = 20;

export interface LaunchContext {
  clusterName: string;
  nodeClass: ScalewayNodeClass;
  instances: ScalewayInstances;
  instanceTypes: readonly InstanceType[];
  nodeClasses: NodeClassResolver<ScalewayNodeClass>;
  unavailableOfferings: UnavailableOfferings;
  /** The server this process already created for the NodeClaim, if any (reads may not list it yet). */
  remembered?: ServerLocation;
  /** Records a server as soon as it is created, before anything else can fail; undefined forgets it. */
  remember: (server: ServerLocation | undefined) => void;
  /** The create attempts for this NodeClaim this process knows the outcome of, and how to note a new one. */
  attempts: CreateAttemptLog;
  /** Writes the attempt's instant on the NodeClaim; resolved before createServer is sent. */
  recordAttempt: (at: number) => Promise<void>;
  now: () => number;
  /** How long after a create of unknown outcome a listing that does not show its server is still no proof. */
  listingWindowMs: number;
}

export interface CreateAttemptLog {
  get(): Omit<CreateAttempts, 'recordedAt'>;
  /** The attempt started at `startedAt` made nothing, or its server is known. */
  settled(startedAt: number): void;
  /** A create whose outcome is unknown ended at `at`. */
  uncertain(at: number): void;
}

export interface Launched {
  server: ScalewayServer;
  instanceType: InstanceType | undefined;
}

function identity(nodeClaim: CloudProviderNodeClaim): { name: string; uid?: string } {
  const name = nodeClaim.metadata?.name ?? '';
  const uid = nodeClaim.metadata?.uid;
  return uid ? { name, uid } : { name };
}

async function joinToken(ctx: LaunchContext): Promise<string | undefined> {
  const ref = ctx.nodeClass.spec.join?.tokenSecretRef;
  if (!ref) return undefined;
  const data = await ctx.nodeClasses.getSecretData({ name: ref.name, namespace: ref.namespace });
  const token = data[ref.key];
  if (!token) throw new NodeClassNotReadyError(`reading join token: Secret ${ref.namespace}/${ref.name} has no key "${ref.key}"`);
  return token;
}

function nodeTaints(nodeClaim: CloudProviderNodeClaim): NodeTaint[] {
  const taints = [...(nodeClaim.spec.taints ?? []), ...(nodeClaim.spec.startupTaints ?? [])];
  return [
    ...taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
    { key: TaintUnregistered.key, effect: TaintUnregistered.effect },
  ];
}

function launchSteps(ctx: LaunchContext, nodeClaim: CloudProviderNodeClaim, token: string | undefined): LaunchSteps {
  const spec = ctx.nodeClass.spec;
  const userData = (server: ScalewayServer): string => {
    const instanceType = ctx.instanceTypes.find((t) => t.name === server.commercialType);
    const labels = { ...(instanceType?.labels ?? {}), ...(nodeClaim.metadata?.labels ?? {}), 'topology.kubernetes.io/zone': server.zone };
    const input = {
      spec,
      ...(token ? { joinToken: token } : {}),
      nodeName: server.name,
      providerID: formatProviderID(server),
      labels,
      taints: nodeTaints(nodeClaim),
    };
    try {
      return renderUserData(input, ctx.nodeClass.metadata?.name ?? '');
    } catch (error) {
      if (error instanceof MissingJoinTokenError) throw new NodeClassNotReadyError(error.message, { cause: error });
      throw error;
    }
  };
  return { userData, ...(spec.privateNetworkId ? { privateNetworkId: spec.privateNetworkId } : {}) };
}

function createRequest(ctx: LaunchContext, nodeClaim: CloudProviderNodeClaim, candidate: LaunchCandidate): CreateServerRequest {
  const spec = ctx.nodeClass.spec;
  const id = identity(nodeClaim);
  const tags = launchTags({
    clusterName: ctx.clusterName,
    nodeClaimName: id.name,
    ...(id.uid ? { nodeClaimUID: id.uid } : {}),
    ...(nodeClaim.metadata?.labels?.[LabelNodePool] ? { nodePoolName: nodeClaim.metadata.labels[LabelNodePool] } : {}),
    nodeClassName: ctx.nodeClass.metadata?.name ?? '',
    image: spec.image,
    userDataHash: userDataHash(spec),
    ...(spec.tags ? { extra: spec.tags } : {}),
  });
  return {
    zone: candidate.offering.zone,
    name: id.name,
    commercialType: candidate.instanceType.name,
    image: spec.image,
    projectId: spec.projectId,
    tags,
    rootVolume: {
      type: spec.rootVolume?.type ?? 'sbs_volume',
      sizeBytes: (spec.rootVolume?.sizeGiB ?? DefaultRootVolumeGiB) * GiB,
      name: rootVolumeName(id),
    },
    ...(spec.securityGroupId ? { securityGroupId: spec.securityGroupId } : {}),
    ...(spec.placementGroupId ? { placementGroupId: spec.placementGroupId } : {}),
  };
}

/** createServer, recorded on the NodeClaim before it is sent, its outcome noted in this process after. */
async function createStopped(ctx: LaunchContext, nodeClaim: CloudProviderNodeClaim, candidate: LaunchCandidate): Promise<ScalewayServer> {
  const lookup = nodeClaimLookupTags(ctx.clusterName, identity(nodeClaim));
  const request = createRequest(ctx, nodeClaim, candidate);
  const startedAt = ctx.now();
  await ctx.recordAttempt(startedAt);
  try {
    const server = await ctx.instances.createStopped(request, lookup);
    ctx.remember(server);
    ctx.attempts.settled(startedAt);
    return server;
  } catch (error) {
    if (error instanceof CreateOutcomeUnknownError) ctx.attempts.uncertain(ctx.now());
    else ctx.attempts.settled(startedAt);
    throw error;
  }
}

/**
 * Nothing listed for the NodeClaim: a create may be sent unless one of unknown outcome is so recent that the
 * listing may not show its server yet; then the caller looks again soon (CreatePendingError).
 */
function ensureMayCreate(ctx: LaunchContext, nodeClaim: CloudProviderNodeClaim): void {
  const now = ctx.now();
  const waitMs = listingWaitMs(nodeClaim.metadata?.annotations, ctx.attempts.get(), now, ctx.listingWindowMs);
  if (waitMs === 0) return;
  const until = new Date(now + waitMs).toISOString();
  throw new CreatePendingError(
    `launching nodeclaim ${identity(nodeClaim).name}: an earlier create may have made a server the listing does not show yet; looking again, and creating only if none shows by ${until}`,
    Math.min(waitMs, ListingRecheckMs),
  );
}

async function tryOffering(
  ctx: LaunchContext,
  nodeClaim: CloudProviderNodeClaim,
  candidate: LaunchCandidate,
  steps: LaunchSteps,
): Promise<ScalewayServer> {
  const server = await createStopped(ctx, nodeClaim, candidate);
  try {
    return await ctx.instances.finishLaunch(server, steps, true);
  } catch (error) {
    // Refused at poweron: the stopped server would never run; delete it rather than leak it.
    if (findInChain(error, InsufficientCapacityError)) {
      await ctx.instances.terminateStep({ ...server, state: 'stopped' });
      ctx.remember(undefined);
    }
    throw error;
  }
}

/**
 * The server this process created for the NodeClaim. A 404 is "not visible yet" (a TransientCloudError):
 * listing could miss it just the same, and a second create would make a duplicate.
 */
async function rememberedServer(ctx: LaunchContext): Promise<ScalewayServer | undefined> {
  if (!ctx.remembered) return undefined;
  return ctx.instances.getFresh(ctx.remembered.zone, ctx.remembered.id);
}

/**
 * Finishes a server an earlier attempt left behind. When its poweron is refused for stock, it is deleted
 * and its offering marked, and undefined tells the caller to launch elsewhere.
 */
async function resume(
  ctx: LaunchContext,
  existing: ScalewayServer,
  steps: LaunchSteps,
  fresh: boolean,
): Promise<ScalewayServer | undefined> {
  try {
    return await ctx.instances.finishLaunch(existing, steps, fresh);
  } catch (error) {
    if (!ctx.unavailableOfferings.markFromError(error)) throw error;
    await ctx.instances.terminateStep({ ...existing, state: 'stopped' });
    ctx.remember(undefined);
    return undefined;
  }
}

/** Launches (or finishes launching) the NodeClaim's server. */
export async function launch(ctx: LaunchContext, nodeClaim: CloudProviderNodeClaim): Promise<Launched> {
  const token = await joinToken(ctx);
  const steps = launchSteps(ctx, nodeClaim, token);
  const typeOf = (server: ScalewayServer): InstanceType | undefined => ctx.instanceTypes.find((t) => t.name === server.commercialType);
  const remembered = await rememberedServer(ctx);
  const existing =
    remembered ?? (await ctx.instances.list(ctx.nodeClass.spec.zones, nodeClaimLookupTags(ctx.clusterName, identity(nodeClaim))))[0];
  if (existing) {
    const server = await resume(ctx, existing, steps, remembered !== undefined);
    if (server) return { server, instanceType: typeOf(server) };
  } else ensureMayCreate(ctx, nodeClaim);
  const candidates = launchCandidates(ctx.instanceTypes, nodeClaim.spec).slice(0, MaxOfferingsPerLaunch);
  const refused: OfferingKey[] = [];
  for (const candidate of candidates) {
    // Offerings refused earlier in this very call (e.g. by the resumed server) are not tried again.
    if (
      ctx.unavailableOfferings.isUnavailable({
        instanceType: candidate.instanceType.name,
        zone: candidate.offering.zone,
        capacityType: candidate.offering.capacityType,
      })
    )
      continue;
    try {
      const server = await tryOffering(ctx, nodeClaim, candidate, steps);
      return { server, instanceType: candidate.instanceType };
    } catch (error) {
      if (!ctx.unavailableOfferings.markFromError(error)) throw error;
      refused.push(...(findInChain(error, InsufficientCapacityError)?.offerings ?? []));
    }
  }
  const name = identity(nodeClaim).name;
  const tried = refused.map((o) => `${o.instanceType}/${o.zone}`).join(', ');
  throw new InsufficientCapacityError(
    candidates.length === 0
      ? `launching nodeclaim ${name}: no available offering matches its requirements and requests`
      : `launching nodeclaim ${name}: every offering tried was out of stock (${tried})`,
    refused,
  );
}
