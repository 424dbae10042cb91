/**
 * Two clusters sharing one cloud project: each world sees the project through its own cluster's eyes. An
 * instance joins the cluster its user data points at; in the emulators both clusters' join data look alike, so
 * the cluster mark the operator writes stands for it. Only instances marked for ANOTHER cluster are hidden: an
 * instance with no cluster mark still counts (a launch that forgot the mark is then a leak, not invisible).
 */
import type { OutscaleEmulator } from '../../../src/testbed/emulators/outscale/index.js';
import type { ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';

const ScalewayClusterTag = 'karpenter-eu.io/cluster';
const OutscaleClusterTag = 'karpenter.sh/managed-by';

export type ScalewayView = Pick<ScalewayEmulator, 'state'>;
export type OutscaleView = Pick<OutscaleEmulator, 'state' | 'region'>;

function scalewayCluster(tags: readonly string[]): string | undefined {
  return tags.find((t) => t.startsWith(`${ScalewayClusterTag}=`))?.slice(ScalewayClusterTag.length + 1);
}

export function scalewayScoped(emulator: ScalewayView, clusterName: string): ScalewayView {
  return {
    state() {
      const state = emulator.state();
      return { ...state, instances: state.instances.filter((s) => (scalewayCluster(s.tags) ?? clusterName) === clusterName) };
    },
  };
}

export function outscaleScoped(emulator: OutscaleView, clusterName: string): OutscaleView {
  const ours = (tags: Record<string, string>): boolean => (tags[OutscaleClusterTag] ?? clusterName) === clusterName;
  return {
    region: emulator.region,
    state() {
      const state = emulator.state();
      const instances = state.instances.filter((vm) => ours(vm.tags));
      const vmIds = new Set(instances.map((vm) => vm.id));
      // The snapshot carries no GPU tags: an unlinked GPU counts for both clusters (a leak shows in either).
      const flexibleGpus = state.flexibleGpus.filter((g) => g.vmId === undefined || vmIds.has(g.vmId));
      return { ...state, instances, flexibleGpus };
    },
  };
}
