/**
 * Cluster snapshot → the pure DisruptionInput: NodePools with their instance types (from the cloud provider),
 * node prices (instance type × zone offering), last pod events (kept here, seeded from the NodeClaims) and cloud
 * drift answers.
 */
import { LabelInstanceType, LabelTopologyZone, type NodeClaim, type NodePool } from '../../apis/index.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import type { DisruptionInput, DisruptionNode } from '../../domain/disruption/index.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { SchedulingNodePool } from '../../domain/scheduling/index.js';
import type { ClusterSnapshot } from '../../state/index.js';
import type { Logger } from '../../util/logger.js';
import { usageAsResourceList } from '../../domain/nodepool/limits.js';
import { schedulingNodePool } from '../provisioning/scheduling-input.js';
import type { DriftCache } from './drift-cache.js';
import type { PodEventTracker } from './pod-event-tracker.js';

export interface InputSources {
  cloudProvider: CloudProvider;
  driftCache: DriftCache;
  podEvents: PodEventTracker;
  logger: Logger;
}

async function instanceTypesByPool(pools: readonly NodePool[], sources: InputSources): Promise<Map<string, InstanceType[]>> {
  const out = new Map<string, InstanceType[]>();
  await Promise.all(
    pools.map(async (pool) => {
      try {
        out.set(pool.metadata?.name ?? '', await sources.cloudProvider.getInstanceTypes(pool));
      } catch (err) {
        // Without its types a pool gets no replacements and its nodes no price: they are simply not candidates.
        sources.logger.warn('getting instance types', { nodePool: pool.metadata?.name, error: err });
        out.set(pool.metadata?.name ?? '', []);
      }
    }),
  );
  return out;
}

function priceOf(labels: Readonly<Record<string, string>>, types: readonly InstanceType[]): number | undefined {
  const type = types.find((t) => t.name === labels[LabelInstanceType]);
  return type?.offerings.find((o) => o.zone === labels[LabelTopologyZone])?.pricePerHour;
}

/** The last pod event the NodeClaim carries (written by this or an earlier leader). */
function recordedPodEvent(nodeClaim: NodeClaim | undefined): number | undefined {
  const at = Date.parse(nodeClaim?.status?.lastPodEventTime ?? '');
  return Number.isNaN(at) ? undefined : at;
}

export async function buildDisruptionInput(snapshot: ClusterSnapshot, sources: InputSources): Promise<DisruptionInput> {
  const now = snapshot.takenAt;
  const typesByPool = await instanceTypesByPool(snapshot.nodePools, sources);
  const claims = snapshot.nodes
    .filter((n) => n.nodeClaim && n.node && n.initialized && !n.markedForDeletion)
    .map((n) => n.nodeClaim as NonNullable<typeof n.nodeClaim>);
  const drift = await sources.driftCache.reasons(claims, now);
  const nodes: DisruptionNode[] = snapshot.nodes.map((n) => {
    const labels = n.node?.metadata?.labels ?? n.nodeClaim?.metadata?.labels ?? {};
    const price = priceOf(labels, typesByPool.get(n.nodePool ?? '') ?? []);
    const claimName = n.nodeClaim?.metadata?.name ?? '';
    const cloudDrift = drift.get(claimName);
    return {
      name: n.name,
      node: n.node,
      nodeClaim: n.nodeClaim,
      nodePool: n.nodePool,
      pods: n.pods,
      initialized: n.initialized,
      markedForDeletion: n.markedForDeletion,
      nominated: n.nominated,
      pricePerHour: price,
      lastPodEventAt: n.node ? sources.podEvents.observe(n.name, n.pods, now, recordedPodEvent(n.nodeClaim)) : undefined,
      ...(cloudDrift === undefined ? {} : { cloudDriftReason: cloudDrift }),
    };
  });
  sources.podEvents.retain(new Set(snapshot.nodes.filter((n) => n.node).map((n) => n.name)));
  const schedulingNodePools = snapshot.nodePools
    .map((p) =>
      schedulingNodePool(
        p,
        typesByPool.get(p.metadata?.name ?? '') ?? [],
        usageAsResourceList(snapshot.nodePoolUsage[p.metadata?.name ?? '']),
      ),
    )
    .filter((p): p is SchedulingNodePool => p !== undefined);
  return {
    now,
    nodes,
    pendingPods: snapshot.pendingPods,
    nodePools: snapshot.nodePools,
    schedulingNodePools,
    daemonSets: snapshot.daemonSets.map((d) => ({ metadata: d.spec?.template.metadata, spec: d.spec?.template.spec })),
    podDisruptionBudgets: snapshot.podDisruptionBudgets,
  };
}
