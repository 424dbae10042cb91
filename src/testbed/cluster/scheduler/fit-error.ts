/** kube-scheduler's FitError message: "0/3 nodes are available: 1 Insufficient cpu, 2 …. preemption: …". */

export const NoNodesAvailableMessage = 'no nodes available to schedule pods';

/** reason → how many nodes gave it; a node with several reasons counts in each. */
export type ReasonHistogram = Map<string, number>;

export function addReasons(histogram: ReasonHistogram, reasons: readonly string[]): void {
  for (const reason of reasons) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
}

export function fitErrorMessage(totalNodes: number, histogram: ReasonHistogram): string {
  // sortReasonsHistogram sorts the formatted "count reason" strings.
  const parts = [...histogram].map(([reason, count]) => `${count} ${reason}`).sort();
  const preemption = `preemption: 0/${totalNodes} nodes are available: ${totalNodes} Preemption is not helpful for scheduling.`;
  return `0/${totalNodes} nodes are available: ${parts.join(', ')}. ${preemption}`;
}
