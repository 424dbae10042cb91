/**
 * Whether a kubeadm join pins the cluster CA. Without `caBundle` or `caCertHashes` the join config has to use
 * kubeadm's unsafeSkipCAVerification: a new node then trusts whichever server answers at the endpoint with the
 * bootstrap token. Admission warns with this sentence and the NodeClass status keeps it as a condition.
 */
import type { Condition } from '../../apis/v1/common.js';

export const JoinCAPinnedCondition = 'JoinCAPinned';

export interface JoinSettings {
  caBundle?: string;
  caCertHashes?: readonly string[];
}

/** kube-apiserver truncates an admission warning past 256 characters: this one fits. */
export const UnpinnedJoinWarning =
  'spec.join: no caBundle or caCertHashes, so kubeadm joins with unsafeSkipCAVerification and trusts any server at apiServerEndpoint; ' +
  'pin the CA: spec.join.caCertHashes: ["sha256:<hex>"] (kubeadm\'s CA cert hash) or spec.join.caBundle';

/** The condition has room for where the hash comes from. */
const UnpinnedJoinCondition = `${UnpinnedJoinWarning}. The hash is the --discovery-token-ca-cert-hash that \`kubeadm token create --print-join-command\` prints`;

export interface JoinPinning {
  pinned: boolean;
  reason: string;
  message: string;
}

export function joinPinning(join: JoinSettings): JoinPinning {
  if (join.caBundle) return { pinned: true, reason: 'CABundle', message: 'the node verifies the API server against spec.join.caBundle' };
  if (join.caCertHashes?.length)
    return { pinned: true, reason: 'CACertHashes', message: 'kubeadm verifies the cluster CA against spec.join.caCertHashes' };
  return { pinned: false, reason: 'UnsafeSkipCAVerification', message: UnpinnedJoinWarning };
}

/** The JoinCAPinned condition of a class that joins with kubeadm, keeping lastTransitionTime while its status holds. */
export function joinPinnedCondition(
  join: JoinSettings,
  history: { previous: readonly Condition[]; now: number; generation?: number },
): Condition {
  const { pinned, reason, message: said } = joinPinning(join);
  const message = pinned ? said : UnpinnedJoinCondition;
  const status = pinned ? 'True' : 'False';
  const before = history.previous.find((c) => c.type === JoinCAPinnedCondition);
  return {
    type: JoinCAPinnedCondition,
    status,
    reason,
    message,
    lastTransitionTime: before?.status === status ? before.lastTransitionTime : new Date(history.now).toISOString(),
    ...(history.generation !== undefined ? { observedGeneration: history.generation } : {}),
  };
}
