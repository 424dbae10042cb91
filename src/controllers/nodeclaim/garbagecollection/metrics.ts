/**
 * Garbage collection's own counters, on the service's registry (get-or-create, like metrics/registry.ts).
 * NodeClaims it removes are counted by termination (`karpenter_eu_nodeclaims_terminated_by_reason_total{reason="garbage_collected"}`).
 */
import { Counter, type Registry } from 'prom-client';

export interface GarbageCollectionMetrics {
  /** Passes that deleted nothing because the cloud or the API could not be read completely. */
  skippedPasses: Counter<'reason' | 'provider'>;
  /** Leaked cloud instances deleted. */
  instancesDeleted: Counter<'provider'>;
  /** Orphaned claim resources (Outscale flexible GPUs) deleted. */
  claimResourcesDeleted: Counter<'provider' | 'kind'>;
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  const existing = registry.getSingleMetric(name) as Counter<L> | undefined;
  return existing ?? new Counter({ name, help, labelNames, registers: [registry] });
}

export function garbageCollectionMetrics(registry: Registry): GarbageCollectionMetrics {
  return {
    skippedPasses: counter(
      registry,
      'karpenter_eu_garbage_collection_skipped_total',
      'Garbage collection passes that deleted nothing because a listing was failed, timed out or partial. Labeled by reason and provider.',
      ['reason', 'provider'],
    ),
    instancesDeleted: counter(
      registry,
      'karpenter_eu_garbage_collection_instances_deleted_total',
      'Cloud instances without a NodeClaim deleted by garbage collection. Labeled by provider.',
      ['provider'],
    ),
    claimResourcesDeleted: counter(
      registry,
      'karpenter_eu_garbage_collection_claim_resources_deleted_total',
      'Resources allocated for a NodeClaim besides its instance (flexible GPUs), held by no instance, whose NodeClaim is gone, deleted by garbage collection. Labeled by provider and kind.',
      ['provider', 'kind'],
    ),
  };
}
