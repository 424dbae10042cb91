/**
 * The disruption loop (upstream pkg/controllers/disruption): every `pollIntervalMs` on the Clock, once state is
 * synced, untaint nodes a command that never finished left cordoned, delete expired NodeClaims (forceful,
 * outside budgets), publish which nodes may go soon (drifted, consolidatable) to the scheduler extender and as
 * the NodeClaims' Drifted/Consolidatable conditions, then try the methods in order — drift, emptiness,
 * multi-node, single-node consolidation — and let the first command found act: wait the validation delay, rebuild the input, re-check candidates, budgets and the simulation, then execute it in the background
 * (replacements Initialized before candidates are deleted). Every command gets Events and metrics.
 */
import { deletionReasonOfDisruption, DeletionReasons, type NodePool } from '../../apis/index.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import {
  budgetMapping,
  claimConditionChanges,
  type Decision,
  DisruptionReasonsAll,
  disruptionOutlook,
  eligibleNodes,
  evaluate,
  expiredNodeClaims,
  staleDisruptedTaints,
  validateCommand,
} from '../../domain/disruption/index.js';
import type { DisruptionCommand, DisruptionInput } from '../../domain/disruption/index.js';
import { type EventRecorder, type Kube } from '../../kube/index.js';
import type { Metrics } from '../../metrics/registry.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { deleteNodeClaimWithReason } from '../termination/object-operations.js';
import type { Controller } from '../types.js';
import { ClaimConditionWriter } from './claim-condition-writer.js';
import { disruptedLabels } from './disrupted-labels.js';
import { DriftCache } from './drift-cache.js';
import { publishCommandEvents, publishExpiredEvent } from './events.js';
import { executeCommand, setDisruptedTaint } from './executor.js';
import { buildDisruptionInput, type InputSources } from './input.js';
import { savingsCounter } from './metrics.js';
import { PodEventTracker } from './pod-event-tracker.js';

export interface DisruptionOptions {
  /** Upstream pollingPeriod: 10 s. */
  pollIntervalMs?: number;
  /** Upstream commandValidationDelay: 15 s. */
  validationDelayMs?: number;
  /** How long replacements may take to become Initialized (upstream's retry duration is clamped to 10 min–1 h). */
  replacementTimeoutMs?: number;
  /** How often a NodeClaim's cloud drift is re-checked (upstream 5 min). */
  driftCheckIntervalMs?: number;
  maxMultiNodeCandidates?: number;
  maxSingleNodeSimulations?: number;
}

export interface DisruptionControllerDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger?: Logger;
  metrics?: Metrics;
  recorder?: EventRecorder;
  /** A replacement NodeClaim was created: wire to the lifecycle controller so it launches at once. */
  onNodeClaimCreated?: (name: string) => void;
  options?: DisruptionOptions;
}

export interface DisruptionController extends Controller {
  /** One pass of the loop (exposed for tests); resolves once the command, if any, has been started. */
  reconcile(signal: AbortSignal): Promise<Decision | undefined>;
  /** Commands started and not yet finished. */
  inFlight(): number;
}

const defaults = { pollIntervalMs: 10_000, validationDelayMs: 15_000, replacementTimeoutMs: 10 * 60_000, driftCheckIntervalMs: 5 * 60_000 };

/** The nodes of running commands count as being deleted: not candidates, their pods not on them in any simulation. */
function withInProgress(input: DisruptionInput, inProgress: ReadonlySet<string>): DisruptionInput {
  if (inProgress.size === 0) return input;
  return {
    ...input,
    nodes: input.nodes.map((n) => (inProgress.has(n.name) && !n.markedForDeletion ? { ...n, markedForDeletion: true } : n)),
  };
}

export function createDisruptionController(deps: DisruptionControllerDeps): DisruptionController {
  const options = { ...defaults, ...deps.options };
  const logger = (deps.logger ?? silentLogger).child({ controller: 'disruption' });
  const sources: InputSources = {
    cloudProvider: deps.cloudProvider,
    driftCache: new DriftCache(deps.cloudProvider, options.driftCheckIntervalMs, logger),
    podEvents: new PodEventTracker(),
    logger,
  };
  const running = new Set<Promise<void>>();
  const conditions = new ClaimConditionWriter(deps.kube, logger);
  const consolidation = {
    maxMultiNodeCandidates: options.maxMultiNodeCandidates,
    maxSingleNodeSimulations: options.maxSingleNodeSimulations,
    // The searches' timeouts run on the controller's clock.
    now: () => deps.clock.now(),
  };
  // Both series from the start, as upstream: a rate() over them needs the zero.
  for (const type of ['multi', 'single']) deps.metrics?.disruptionConsolidationTimeouts.inc({ consolidation_type: type }, 0);

  // Candidates of started commands (upstream's queue): taken by one command, never chosen again by another, even
  // before the command marks them in state (it does so only once their replacements exist).
  const inProgress = new Set<string>();
  const input = async (): Promise<DisruptionInput> =>
    withInProgress(await buildDisruptionInput(deps.state.snapshot(), sources), inProgress);
  // Every pod change, not only each pass, moves a node's clock: a pod that comes and goes between passes counts.
  const stopTrackingPods = deps.state.onNodeChange((name) =>
    sources.podEvents.observe(name, deps.state.podsOnNode(name), deps.clock.now()),
  );

  // NodeClaims expiry deleted that state may still show undeleted (the watch lags): not expired again.
  const expiring = new Set<string>();

  /** Deletes expired NodeClaims; returns the input with their nodes counted as being deleted. */
  async function expire(current: DisruptionInput): Promise<DisruptionInput> {
    const pools = new Map(current.nodePools.map((p) => [p.metadata?.name ?? '', p as NodePool]));
    const live = new Set(
      current.nodes.flatMap((n) => (n.nodeClaim && !n.nodeClaim.metadata?.deletionTimestamp ? [n.nodeClaim.metadata?.name ?? ''] : [])),
    );
    for (const name of expiring) if (!live.has(name)) expiring.delete(name);
    const claims = current.nodes
      .filter((n) => n.nodeClaim && !expiring.has(n.nodeClaim.metadata?.name ?? ''))
      .map((n) => ({
        nodeClaim: n.nodeClaim as NonNullable<typeof n.nodeClaim>,
        nodePoolExpireAfter: pools.get(n.nodePool ?? '')?.spec.template.spec.expireAfter,
      }));
    for (const e of expiredNodeClaims(claims, current.now)) {
      const claim = claims.find((c) => c.nodeClaim.metadata?.name === e.nodeClaim)?.nodeClaim;
      await deleteNodeClaimWithReason(deps.kube, claim ?? { metadata: { name: e.nodeClaim } }, DeletionReasons.expired);
      // In state at once, whatever the watch's lag: provisioning launches for its pods, no pass acts on it again.
      expiring.add(e.nodeClaim);
      deps.state.markForDeletion(
        ...deps.state
          .stateNodes()
          .filter((n) => n.nodeClaim?.metadata?.name === e.nodeClaim)
          .map((n) => n.key),
      );
      deps.metrics?.nodeClaimsDisrupted.inc(disruptedLabels(DeletionReasons.expired, claim, pools.get(e.nodePool ?? ''), false));
      logger.info('deleting expired NodeClaim', { nodeClaim: e.nodeClaim, expiredAt: new Date(e.expiredAt).toISOString() });
      void publishExpiredEvent(deps.recorder, e.nodeClaim);
    }
    return withInProgress(
      current,
      new Set(current.nodes.filter((n) => expiring.has(n.nodeClaim?.metadata?.name ?? '')).map((n) => n.name)),
    );
  }

  /** A restart mid-command leaves candidates tainted; nothing else would ever untaint them. */
  async function untaintStale(): Promise<void> {
    const facts = deps.state
      .stateNodes()
      .filter((n) => n.node)
      .map((n) => ({ name: n.name, managed: n.managed, markedForDeletion: n.markedForDeletion, taints: n.node?.spec?.taints ?? [] }));
    for (const name of staleDisruptedTaints(facts)) {
      logger.info('removing a disrupted taint no command stands behind', { node: name });
      await setDisruptedTaint(deps.kube, name, false);
    }
  }

  function recordBudgets(current: DisruptionInput): void {
    for (const reason of DisruptionReasonsAll) {
      const mapping = budgetMapping(current, reason);
      for (const error of mapping.errors) logger.warn('disruption budget fails closed', { reason, error });
      for (const [pool, allowed] of mapping.allowed)
        deps.metrics?.nodePoolsAllowedDisruptions.set({ nodepool: pool, reason: reason.toLowerCase() }, allowed);
    }
  }

  /** One count per candidate NodeClaim, labeled by its own nodepool and capacity type. */
  function countDisrupted(command: DisruptionCommand, reason: string, current: DisruptionInput): void {
    const pools = new Map(current.nodePools.map((p) => [p.metadata?.name ?? '', p as NodePool]));
    const wanted = new Set(command.candidates);
    for (const n of current.nodes) {
      const name = n.nodeClaim?.metadata?.name;
      if (name === undefined || !wanted.has(name)) continue;
      deps.metrics?.nodeClaimsDisrupted.inc(
        disruptedLabels(reason, n.nodeClaim, pools.get(n.nodePool ?? ''), command.consolidationType !== ''),
      );
    }
  }

  function start(decision: Decision, current: DisruptionInput, signal: AbortSignal): void {
    const { command } = decision;
    const labels = {
      decision: command.decision,
      reason: deletionReasonOfDisruption(command.reason),
      consolidation_type: command.consolidationType,
    };
    deps.metrics?.disruptionDecisions.inc(labels);
    countDisrupted(command, labels.reason, current);
    void publishCommandEvents(deps.recorder, command);
    logger.info('disrupting', {
      method: decision.method,
      ...labels,
      candidates: command.candidates,
      replacements: command.replacements.map((r) => r.instanceType),
      pricePerHourBefore: command.pricePerHourBefore,
      pricePerHourAfter: command.pricePerHourAfter,
    });
    for (const node of command.candidateNodes) inProgress.add(node);
    const job = executeCommand(
      {
        kube: deps.kube,
        state: deps.state,
        clock: deps.clock,
        logger,
        replacementTimeoutMs: options.replacementTimeoutMs,
        pollMs: 1000,
        onNodeClaimCreated: deps.onNodeClaimCreated,
      },
      command,
      signal,
    )
      .then(() => {
        if (deps.metrics)
          savingsCounter(deps.metrics.registry).inc(
            { reason: labels.reason, decision: command.decision },
            Math.max(0, command.pricePerHourBefore - command.pricePerHourAfter),
          );
      })
      .catch((err: unknown) => {
        if (signal.aborted) return;
        deps.metrics?.disruptionQueueFailures.inc(labels);
        logger.warn('disruption command failed', { error: err });
      })
      .finally(() => {
        running.delete(job);
        for (const node of command.candidateNodes) inProgress.delete(node);
      });
    running.add(job);
  }

  async function reconcile(signal: AbortSignal): Promise<Decision | undefined> {
    if (!deps.state.synced()) return undefined;
    await untaintStale();
    const read = await input();
    // The scheduler extender steers new pods away from what this pass may take; the NodeClaims say it too.
    deps.state.setDisruptionOutlook(disruptionOutlook(read));
    conditions.submit(claimConditionChanges(read));
    const current = await expire(read);
    recordBudgets(current);
    for (const [reason, count] of Object.entries(eligibleNodes(current))) deps.metrics?.disruptionEligibleNodes.set({ reason }, count);
    const { decision, timeouts, ran } = evaluate(current, consolidation, () => performance.now());
    for (const type of timeouts) {
      deps.metrics?.disruptionConsolidationTimeouts.inc({ consolidation_type: type });
      logger.info('consolidation search stopped at its timeout', { consolidationType: type, found: decision !== undefined });
    }
    for (const { method, ms } of ran) deps.metrics?.disruptionEvaluationDuration.observe(method.labels, ms / 1000);
    if (!decision) return undefined;
    await deps.clock.sleep(options.validationDelayMs, signal);
    const validation = validateCommand(decision.command, await input());
    if (!validation.valid) {
      logger.info('abandoning disruption command after validation', { candidates: decision.command.candidates, why: validation.reason });
      return undefined;
    }
    start(decision, current, signal);
    return decision;
  }

  return {
    name: 'disruption',
    reconcile,
    inFlight: () => running.size,
    async start(signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        try {
          await reconcile(signal);
        } catch (err) {
          if (signal.aborted) break;
          logger.error('disruption pass failed', { error: err });
        }
        await deps.clock.sleep(options.pollIntervalMs, signal).catch(() => undefined);
      }
      await Promise.allSettled([...running]);
      await conditions.idle();
      stopTrackingPods();
      // Another replica runs disruption now: readers go back to the conditions it writes.
      deps.state.setDisruptionOutlook(undefined);
    },
  };
}
