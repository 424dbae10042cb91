/**
 * NodeOverlays at the CloudProvider port (upstream's `overlay.Decorate`): every instance-type list the
 * controllers read (provisioning, consolidation, in-flight capacity, node prices) is the one the overlays
 * make the simulation see. `create` launches the cheapest offering by the same prices: the NodeClaim's
 * instance types are narrowed to the cheapest ones once repriced, so the cloud's own cheapest-first choice
 * cannot undo what the overlays decided.
 */
import { LabelInstanceType, LabelNodePool } from '../apis/v1/labels.js';
import { availableOnly, compatibleOfferings } from '../domain/instancetypes/offering-choice.js';
import type { InstanceType } from '../domain/instancetypes/types.js';
import { applyNodeOverlays, type NodeOverlayLike } from '../domain/nodeoverlay/apply.js';
import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  DetectedCluster,
  DriftReason,
  NodeClassCloudFacts,
  NodeClassKind,
  RepairPolicy,
} from './types.js';

export interface NodeOverlaySource {
  /** The NodeOverlays stored now. */
  overlays(): readonly NodeOverlayLike[];
  /** The NodePool of that name, to reprice a NodeClaim's instance types before its launch. */
  nodePool(name: string): CloudProviderNodePool | undefined;
}

export function overlaidCloudProvider(inner: CloudProvider, source: NodeOverlaySource): CloudProvider {
  return new OverlaidCloudProvider(inner, source);
}

/** Prices that differ by less than this are the same price (sums of float prices). */
const PriceEpsilon = 1e-9;

class OverlaidCloudProvider implements CloudProvider {
  readonly name: string;

  constructor(
    private readonly inner: CloudProvider,
    private readonly source: NodeOverlaySource,
  ) {
    this.name = inner.name;
    if (inner.listClaimResources) this.listClaimResources = inner.listClaimResources.bind(inner);
    if (inner.deleteClaimResource) this.deleteClaimResource = inner.deleteClaimResource.bind(inner);
  }

  readonly listClaimResources?: CloudProvider['listClaimResources'];
  readonly deleteClaimResource?: CloudProvider['deleteClaimResource'];

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    const types = await this.inner.getInstanceTypes(nodePool);
    const overlays = this.source.overlays();
    if (overlays.length === 0) return types;
    return applyNodeOverlays(
      types,
      { name: nodePool.metadata?.name ?? '', labels: nodePool.spec.template.metadata?.labels ?? {} },
      overlays,
    );
  }

  async create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    return this.inner.create(await this.repriced(nodeClaim));
  }

  /** The NodeClaim with its instance types narrowed to the cheapest available ones at the overlaid prices. */
  private async repriced(nodeClaim: CloudProviderNodeClaim): Promise<CloudProviderNodeClaim> {
    if (this.source.overlays().length === 0) return nodeClaim;
    const pool = this.source.nodePool(nodeClaim.metadata?.labels?.[LabelNodePool] ?? '');
    const requirements = nodeClaim.spec.requirements;
    const typeRequirement = requirements.find((r) => r.key === LabelInstanceType && r.operator === 'In');
    if (!pool || !typeRequirement || typeRequirement.minValues !== undefined) return nodeClaim;
    const candidates = availableOnly(compatibleOfferings(await this.getInstanceTypes(pool), nodeClaim.spec));
    const cheapest = candidates[0]?.offering.pricePerHour;
    if (cheapest === undefined) return nodeClaim;
    const names = [...new Set(candidates.filter((c) => c.offering.pricePerHour - cheapest < PriceEpsilon).map((c) => c.instanceType.name))];
    if (names.length === typeRequirement.values?.length) return nodeClaim;
    return {
      ...nodeClaim,
      spec: { ...nodeClaim.spec, requirements: requirements.map((r) => (r === typeRequirement ? { ...r, values: names } : r)) },
    };
  }

  delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    return this.inner.delete(nodeClaim);
  }

  get(providerID: string): Promise<CloudNodeClaim> {
    return this.inner.get(providerID);
  }

  list(): Promise<CloudNodeClaim[]> {
    return this.inner.list();
  }

  isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    return this.inner.isDrifted(nodeClaim);
  }

  detectedCluster(kind: string, name: string): Promise<DetectedCluster | undefined> {
    return this.inner.detectedCluster?.(kind, name) ?? Promise.resolve(undefined);
  }

  listRegions(): Promise<CloudRegions[]> {
    return this.inner.listRegions?.() ?? Promise.resolve([]);
  }

  nodeClassFacts(kind: string, name: string): Promise<NodeClassCloudFacts | undefined> {
    return this.inner.nodeClassFacts?.(kind, name) ?? Promise.resolve(undefined);
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return this.inner.getSupportedNodeClasses();
  }

  repairPolicies(): RepairPolicy[] {
    return this.inner.repairPolicies();
  }
}
