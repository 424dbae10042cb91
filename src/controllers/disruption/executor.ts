/**
 * Carries out a validated command (upstream executeCommand + queue.StartCommand): taint the candidates
 * `karpenter.sh/disrupted`, create the replacement NodeClaims and record them in cluster state at once, and only
 * then mark the candidates for deletion — a provisioning pass that sees their pods displaced also sees the
 * capacity launched for them, and does not launch it twice. Then wait until every replacement is Initialized,
 * and delete the candidate NodeClaims with the deletion reason recorded (termination drains them through the
 * Eviction API, so PDBs hold). A replacement that does not initialize in time fails the command: the
 * candidates are untainted and unmarked, and nothing is deleted.
 */
import type { V1Node } from '@kubernetes/client-node';
import { AnnotationNodePoolHash, deletionReasonOfDisruption, type NodeClaim, type NodePool, TaintDisrupted } from '../../apis/index.js';
import { type DisruptionCommand, nodePoolHash } from '../../domain/disruption/index.js';
import { nodeClaimFromDecision } from '../../domain/provisioning/nodeclaim-template.js';
import { ignoreKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { deleteNodeClaimWithReason } from '../termination/object-operations.js';

export interface ExecutorDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  logger: Logger;
  replacementTimeoutMs: number;
  pollMs: number;
  /** Called for each replacement created, so it is launched without waiting for a re-scan. */
  onNodeClaimCreated?: (name: string) => void;
}

export class CommandFailedError extends Error {
  constructor(
    readonly command: DisruptionCommand,
    detail: string,
  ) {
    super(`executing disruption command for ${command.candidates.join(', ')}: ${detail}`);
    this.name = 'CommandFailedError';
  }
}

/** Adds or removes `karpenter.sh/disrupted:NoSchedule` on the Node (a missing Node is not an error). */
export async function setDisruptedTaint(kube: Kube, nodeName: string, on: boolean): Promise<void> {
  const node = await kube.get<V1Node>(Resources.Node, { name: nodeName }).catch(ignoreKubeNotFound);
  if (!node) return;
  const others = (node.spec?.taints ?? []).filter((t) => t.key !== TaintDisrupted.key);
  const taints = on ? [...others, { key: TaintDisrupted.key, effect: TaintDisrupted.effect }] : others;
  await kube.patch(Resources.Node, { name: nodeName }, { type: 'merge', body: { spec: { taints } } }).catch(ignoreKubeNotFound);
}

function stateKeys(state: ClusterState, nodeNames: readonly string[]): string[] {
  const wanted = new Set(nodeNames);
  return state
    .stateNodes()
    .filter((n) => wanted.has(n.name))
    .map((n) => n.key);
}

async function createReplacements(deps: ExecutorDeps, command: DisruptionCommand): Promise<string[]> {
  const names: string[] = [];
  for (const planned of command.replacements) {
    const pool = deps.state.nodePool(planned.nodePool) as NodePool | undefined;
    if (!pool) throw new CommandFailedError(command, `NodePool ${planned.nodePool} of the replacement is gone`);
    const body = nodeClaimFromDecision(planned, pool);
    body.metadata = {
      ...body.metadata,
      annotations: { ...(body.metadata?.annotations ?? {}), [AnnotationNodePoolHash]: nodePoolHash(pool) },
    };
    const created = await deps.kube.create<NodeClaim>(Resources.NodeClaim, body);
    deps.state.recordCreatedNodeClaim(created);
    const name = created.metadata?.name ?? '';
    names.push(name);
    deps.onNodeClaimCreated?.(name);
  }
  return names;
}

function initialized(state: ClusterState, nodeClaimName: string): boolean {
  return state.stateNodes().some((n) => n.nodeClaim?.metadata?.name === nodeClaimName && n.initialized);
}

async function awaitInitialized(
  deps: ExecutorDeps,
  command: DisruptionCommand,
  names: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  const deadline = deps.clock.now() + deps.replacementTimeoutMs;
  const seen = new Set<string>();
  for (;;) {
    if (names.every((n) => initialized(deps.state, n))) return;
    // Seen once in state and now absent: deleted under us (upstream fails the command the same way).
    const gone = names.find((n) => seen.has(n) && deps.state.nodeClaim(n) === undefined);
    if (gone) throw new CommandFailedError(command, `replacement NodeClaim ${gone} disappeared`);
    for (const n of names) if (deps.state.nodeClaim(n) !== undefined) seen.add(n);
    if (deps.clock.now() >= deadline)
      throw new CommandFailedError(command, `replacements ${names.join(', ')} not initialized within ${deps.replacementTimeoutMs / 1000}s`);
    await deps.clock.sleep(deps.pollMs, signal);
  }
}

async function deleteCandidates(deps: ExecutorDeps, command: DisruptionCommand): Promise<void> {
  const reason = deletionReasonOfDisruption(command.reason);
  for (const name of command.candidates)
    await deleteNodeClaimWithReason(deps.kube, deps.state.nodeClaim(name) ?? { metadata: { name } }, reason);
}

/** Runs the command to the end; throws CommandFailedError (after rolling back taints and marks) on failure. */
export async function executeCommand(deps: ExecutorDeps, command: DisruptionCommand, signal: AbortSignal): Promise<void> {
  const keys = stateKeys(deps.state, command.candidateNodes);
  try {
    for (const node of command.candidateNodes) await setDisruptedTaint(deps.kube, node, true);
    const names = await createReplacements(deps, command);
    deps.state.markForDeletion(...keys);
    if (names.length > 0) deps.logger.info('launched replacements', { replacements: names, candidates: command.candidates });
    await awaitInitialized(deps, command, names, signal);
    await deleteCandidates(deps, command);
  } catch (err) {
    deps.state.unmarkForDeletion(...keys);
    await Promise.allSettled(command.candidateNodes.map((n) => setDisruptedTaint(deps.kube, n, false)));
    throw err instanceof CommandFailedError || signal.aborted
      ? err
      : new CommandFailedError(command, err instanceof Error ? err.message : String(err));
  }
}
