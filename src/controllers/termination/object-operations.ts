/**
 * The writes termination makes to Nodes and NodeClaims. Each reads the object fresh and sends a JSON patch
 * guarded by a `test` of its resourceVersion, so a write based on a stale informer copy fails (and is
 * retried on the next pass) instead of overwriting someone else's taints or finalizers.
 */
import type { KubernetesObject, V1Node } from '@kubernetes/client-node';
import { FinalizerTermination, hasDisruptedTaint, TaintDisrupted } from '../../apis/v1/labels.js';
import { AnnotationDeletionReason, type DeletionReason } from '../../apis/v1/deletion-reasons.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { findKubeError, ignoreKubeNotFound, isKubeConflict, isKubeNotFound, KubeInvalid } from '../../kube/errors.js';
import { type ResourceKind, Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { JsonObject, JsonPatchOperation } from '../../util/json-patch.js';

export function resourceVersionTest(object: KubernetesObject): JsonPatchOperation[] {
  const version = object.metadata?.resourceVersion;
  return version === undefined ? [] : [{ op: 'test', path: '/metadata/resourceVersion', value: version }];
}

/** A failed resourceVersion `test` (422) or a 409: someone else wrote the object between our read and write. */
function isStaleWrite(err: unknown): boolean {
  return isKubeConflict(err) || findKubeError(err, KubeInvalid) !== undefined;
}

const maxStaleRetries = 5;

/** Runs read-modify-write `attempt` again (fresh read) when it lost a race, a few times, then gives up. */
export async function retryStale<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isStaleWrite(err) || tries >= maxStaleRetries) throw err;
    }
  }
}

/** Puts `karpenter.sh/disrupted:NoSchedule` on the Node; false when the Node is gone. */
export function taintDisrupted(kube: Kube, nodeName: string): Promise<boolean> {
  return retryStale(() => taintOnce(kube, nodeName));
}

async function taintOnce(kube: Kube, nodeName: string): Promise<boolean> {
  let node: V1Node;
  try {
    node = await kube.get<V1Node>(Resources.Node, { name: nodeName });
  } catch (err) {
    if (isKubeNotFound(err)) return false;
    throw err;
  }
  if (hasDisruptedTaint(node.spec?.taints)) return true;
  const taint: JsonObject = { key: TaintDisrupted.key, effect: TaintDisrupted.effect };
  const add: JsonPatchOperation = node.spec?.taints
    ? { op: 'add', path: '/spec/taints/-', value: { ...taint } }
    : { op: 'add', path: '/spec/taints', value: [{ ...taint }] };
  await kube
    .patch(Resources.Node, { name: nodeName }, { type: 'json', body: [...resourceVersionTest(node), add] })
    .catch(ignoreKubeNotFound);
  return true;
}

/**
 * Removes `karpenter.sh/termination` from the object's finalizers. True when this call removed it; false
 * when the object is gone or the finalizer was already removed (so the caller reports a termination once).
 */
export function removeTerminationFinalizer(kube: Kube, resource: ResourceKind, name: string): Promise<boolean> {
  return retryStale(() => removeFinalizerOnce(kube, resource, name));
}

async function removeFinalizerOnce(kube: Kube, resource: ResourceKind, name: string): Promise<boolean> {
  let object: KubernetesObject;
  try {
    object = await kube.get<KubernetesObject>(resource, { name });
  } catch (err) {
    if (isKubeNotFound(err)) return false;
    throw err;
  }
  const finalizers = object.metadata?.finalizers ?? [];
  if (!finalizers.includes(FinalizerTermination)) return false;
  const remaining = finalizers.filter((f) => f !== FinalizerTermination);
  const patch: JsonPatchOperation[] = [...resourceVersionTest(object), { op: 'replace', path: '/metadata/finalizers', value: remaining }];
  try {
    await kube.patch(resource, { name }, { type: 'json', body: patch });
    return true;
  } catch (err) {
    if (isKubeNotFound(err)) return false;
    throw err;
  }
}

/** Deletes the Node (its finalizer, if any, is removed separately); a gone Node counts as done. */
export async function deleteNode(kube: Kube, nodeName: string): Promise<void> {
  await kube.delete(Resources.Node, { name: nodeName }).catch(ignoreKubeNotFound);
}

/**
 * Deletes a NodeClaim with its reason, the one way every controller does it: the annotation is written first
 * so termination reports it (apis/v1/deletion-reasons.ts). An existing reason is kept — the first deleter's
 * reason wins. With a uid, only that incarnation is deleted. False when the NodeClaim was already gone.
 */
export async function deleteNodeClaimWithReason(
  kube: Kube,
  nodeClaim: Pick<NodeClaim, 'metadata'>,
  reason: DeletionReason,
): Promise<boolean> {
  const name = nodeClaim.metadata?.name ?? '';
  const uid = nodeClaim.metadata?.uid;
  try {
    if (nodeClaim.metadata?.annotations?.[AnnotationDeletionReason] === undefined) {
      const body = { metadata: { annotations: { [AnnotationDeletionReason]: reason } } };
      await kube.patch(Resources.NodeClaim, { name }, { type: 'merge', body });
    }
    await kube.delete(Resources.NodeClaim, { name }, uid ? { preconditions: { uid } } : {});
    return true;
  } catch (error) {
    ignoreKubeNotFound(error);
    return false;
  }
}
