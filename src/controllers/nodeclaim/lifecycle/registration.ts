/**
 * Registration (Karpenter's lifecycle `registration.go`): once a Node with the NodeClaim's providerID
 * exists, it gets the NodeClaim's labels, annotations and taints, the termination finalizer, loses the
 * `karpenter.sh/unregistered` taint; the NodeClaim records the node name and turns Registered.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../apis/index.js';
import { ConditionRegistered, registrationPatch } from '../../../domain/provisioning/index.js';
import type { EventRecorder } from '../../../kube/events.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import type { Metrics } from '../../../metrics/registry.js';
import type { ClusterState } from '../../../state/index.js';
import type { Clock } from '../../../util/clock.js';
import { retryStale } from '../../termination/object-operations.js';
import { nodeClaimRef, patchStatus } from './claim-writes.js';

export interface NodeStepDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  metrics?: Metrics;
  events?: EventRecorder;
}

/** The claim's Node, from the cache: by providerID, else by the recorded node name. */
export function nodeOf(state: ClusterState, claim: NodeClaim): V1Node | undefined {
  const providerID = claim.status?.providerID;
  const byProvider = providerID ? state.nodeByProvider(providerID) : undefined;
  if (byProvider) return byProvider;
  const named = claim.status?.nodeName ? state.node(claim.status.nodeName) : undefined;
  return named && named.spec?.providerID === providerID ? named : undefined;
}

/**
 * Writes the registration changes onto the Node when it lacks any; returns whether it wrote. The write names
 * the copy's resourceVersion (as upstream's optimistic lock): the taint list is written whole, and from a stale
 * copy it would put back a taint removed meanwhile (the node lifecycle controller's not-ready one), so a
 * conflict reads the Node again and recomputes.
 */
export async function syncNode(kube: Kube, node: V1Node, claim: NodeClaim): Promise<boolean> {
  let attempt = 0;
  return retryStale(async () => {
    const current = attempt++ === 0 ? node : await kube.get<V1Node>(Resources.Node, { name: node.metadata?.name ?? '' });
    return writeRegistration(kube, current, claim);
  });
}

async function writeRegistration(kube: Kube, node: V1Node, claim: NodeClaim): Promise<boolean> {
  const patch = registrationPatch(node, claim);
  if (!patch.changed) return false;
  const resourceVersion = node.metadata?.resourceVersion;
  await kube.patch(
    Resources.Node,
    { name: node.metadata?.name ?? '' },
    {
      type: 'merge',
      body: {
        metadata: {
          ...(resourceVersion ? { resourceVersion } : {}),
          labels: patch.labels,
          annotations: patch.annotations,
          finalizers: patch.finalizers,
        },
        spec: { taints: patch.taints },
      },
    },
  );
  return true;
}

/** Registers the claim when its Node exists; returns the updated claim, or undefined when no Node yet. */
export async function register(deps: NodeStepDeps, claim: NodeClaim): Promise<NodeClaim | undefined> {
  const node = nodeOf(deps.state, claim);
  if (!node) return undefined;
  await syncNode(deps.kube, node, claim);
  const nodeName = node.metadata?.name ?? '';
  const updated = await patchStatus(deps.kube, claim, deps.clock.now(), { nodeName }, [
    { type: ConditionRegistered, status: 'True', reason: 'Registered', message: '' },
  ]);
  const labels = claim.metadata?.labels ?? {};
  deps.metrics?.nodesCreated.inc({
    nodepool: labels['karpenter.sh/nodepool'] ?? '',
    zone: node.metadata?.labels?.['topology.kubernetes.io/zone'] ?? '',
  });
  void deps.events?.publish({
    involvedObject: nodeClaimRef(claim),
    type: 'Normal',
    reason: 'Registered',
    message: `Status condition transitioned, Type: Registered, Status: True, node ${nodeName}`,
  });
  return updated;
}
