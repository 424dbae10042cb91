/**
 * The garbage collection of claim resources (what a provider allocates for a NodeClaim besides its
 * instance, e.g. Outscale flexible GPUs): read from the cloud before the NodeClaims, decided by the pure
 * rule in `domain/termination/claim-resources.ts`, deleted one by one. A listing that fails deletes
 * nothing and forgets every sighting, so the grace period restarts on the next readable pass.
 */
import type { ClaimResource, CloudProvider } from '../../../cloudprovider/types.js';
import { decideClaimResources } from '../../../domain/termination/index.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/logger.js';

export interface ClaimResourceSweepDeps {
  cloudProvider: CloudProvider;
  /** Counts each resource deleted. */
  onDeleted: (resource: ClaimResource) => void;
  clock: Clock;
  logger: Logger;
  gracePeriodMs: number;
}

/** What one read of the cloud gave: the resources, or why there are none to decide on. */
export type ClaimResourceListing = { kind: 'complete'; resources: ClaimResource[] } | { kind: 'unsupported' } | { kind: 'failed' };

export interface ClaimResourceSweeper {
  /** Reads the resources; call it BEFORE reading the NodeClaims. */
  list(): Promise<ClaimResourceListing>;
  /** Deletes the orphans past the grace period; returns their ids. */
  collect(listing: ClaimResourceListing, nodeClaimNames: ReadonlySet<string>): Promise<string[]>;
  /** A pass that could not be trusted: every orphan must be seen again for a whole grace period. */
  forget(): void;
}

export function createClaimResourceSweeper(deps: ClaimResourceSweepDeps): ClaimResourceSweeper {
  let orphanedSince: ReadonlyMap<string, number> = new Map();
  const forget = (): void => {
    orphanedSince = new Map();
  };

  async function deleteOne(resource: ClaimResource): Promise<boolean> {
    try {
      await deps.cloudProvider.deleteClaimResource?.(resource);
    } catch (error) {
      deps.logger.warn('deleting orphaned claim resource failed, retrying next pass', {
        resource: resource.id,
        kind: resource.kind,
        error,
      });
      return false;
    }
    deps.onDeleted(resource);
    deps.logger.info('deleted orphaned claim resource', {
      resource: resource.id,
      kind: resource.kind,
      nodeClaim: resource.nodeClaimName,
      reason: 'garbage_collected',
    });
    return true;
  }

  return {
    forget,
    async list() {
      if (!deps.cloudProvider.listClaimResources) return { kind: 'unsupported' };
      try {
        return { kind: 'complete', resources: await deps.cloudProvider.listClaimResources() };
      } catch (error) {
        deps.logger.warn('listing claim resources failed: none deleted this pass', { error });
        return { kind: 'failed' };
      }
    },
    async collect(listing, nodeClaimNames) {
      if (listing.kind !== 'complete') {
        forget();
        return [];
      }
      const decision = decideClaimResources({
        resources: listing.resources,
        nodeClaimNames,
        orphanedSince,
        now: deps.clock.now(),
        gracePeriodMs: deps.gracePeriodMs,
      });
      orphanedSince = decision.orphanedSince;
      const byId = new Map(listing.resources.map((r) => [r.id, r]));
      const deleted: string[] = [];
      for (const view of decision.collect) {
        const resource = byId.get(view.id) as ClaimResource;
        if (await deleteOne(resource)) deleted.push(resource.id);
      }
      return deleted;
    },
  };
}
