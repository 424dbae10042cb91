/**
 * One CloudProvider over several clouds, for a cluster whose NodePools point at NodeClasses of more than one
 * cloud (the demo runs all three). Calls about a NodeClaim or NodePool go to the provider serving its
 * NodeClass kind; calls by providerID go to the provider owning that providerID scheme; a claim resource's
 * deletion goes to the provider that listed it; `list` and `listClaimResources` are complete or throw, never
 * partial (garbage collection deletes what it does not see). It implements every optional member of the port,
 * so one added to the port does not compile until it is routed here.
 */
import { NodeClaimNotFoundError, NodeClassNotReadyError, PermanentCloudError } from './errors.js';
import type {
  ClaimResource,
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  NodeClassCloudFacts,
  DriftReason,
  DetectedCluster,
  NodeClassKind,
  RepairPolicy,
} from './types.js';
import type { InstanceType } from '../domain/instancetypes/types.js';

export interface RoutedCloudProvider {
  provider: CloudProvider;
  /** True for the providerIDs this cloud issues (`scaleway://…`, `aws:///…`, `openstack:///…`). */
  ownsProviderID(providerID: string): boolean;
}

/** The providerID schemes of the clouds, by provider name. */
export const providerIdPrefixes: Readonly<Record<string, string>> = {
  ovhcloud: 'openstack://',
  scaleway: 'scaleway://',
  outscale: 'aws://',
};

export function routedByName(provider: CloudProvider): RoutedCloudProvider {
  const prefix = providerIdPrefixes[provider.name];
  return { provider, ownsProviderID: (id) => (prefix === undefined ? true : id.startsWith(prefix)) };
}

function kindKey(group: string | undefined, kind: string | undefined): string {
  return `${group ?? ''}/${kind ?? ''}`;
}

export class CloudProviderRouter implements Required<CloudProvider> {
  readonly name = 'karpenter-eu';
  private readonly byKind = new Map<string, CloudProvider>();

  constructor(private readonly routes: readonly RoutedCloudProvider[]) {
    for (const { provider } of routes) {
      for (const k of provider.getSupportedNodeClasses()) this.byKind.set(kindKey(k.group, k.kind), provider);
    }
  }

  private forNodeClass(ref: { group?: string; kind?: string } | undefined, what: string): CloudProvider {
    const provider = this.byKind.get(kindKey(ref?.group, ref?.kind));
    if (!provider) {
      const served = [...this.byKind.keys()].join(', ') || 'none (no cloud credentials configured)';
      throw new NodeClassNotReadyError(
        `routing ${what}: nodeClassRef ${kindKey(ref?.group, ref?.kind)} has no configured cloud; accepted: ${served}`,
      );
    }
    return provider;
  }

  private forProviderID(providerID: string): CloudProvider | undefined {
    return this.routes.find((r) => r.ownsProviderID(providerID))?.provider;
  }

  async create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    return this.forNodeClass(nodeClaim.spec.nodeClassRef, `nodeclaim ${nodeClaim.metadata?.name ?? ''}`).create(nodeClaim);
  }

  async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    const providerID = nodeClaim.status?.providerID;
    const provider = providerID ? this.forProviderID(providerID) : undefined;
    return (provider ?? this.forNodeClass(nodeClaim.spec.nodeClassRef, `nodeclaim ${nodeClaim.metadata?.name ?? ''}`)).delete(nodeClaim);
  }

  get(providerID: string): Promise<CloudNodeClaim> {
    const provider = this.forProviderID(providerID);
    if (!provider)
      return Promise.reject(new NodeClaimNotFoundError(`getting instance ${providerID}: no configured cloud issues this providerID`));
    return provider.get(providerID);
  }

  async list(): Promise<CloudNodeClaim[]> {
    // Promise.all rejects when any cloud fails: a partial list must never reach garbage collection.
    const lists = await Promise.all(this.routes.map((r) => r.provider.list()));
    return lists.flat();
  }

  async listClaimResources(): Promise<ClaimResource[]> {
    // As for list: one cloud that cannot be read fails the whole listing. Clouds without claim resources add none.
    const lists = await Promise.all(this.routes.map((r) => r.provider.listClaimResources?.() ?? []));
    return lists.flat();
  }

  async deleteClaimResource(resource: ClaimResource): Promise<void> {
    const provider = this.routes.find((r) => r.provider.name === resource.provider && r.provider.deleteClaimResource)?.provider;
    if (!provider?.deleteClaimResource) {
      const accepted = this.routes.filter((r) => r.provider.deleteClaimResource).map((r) => r.provider.name);
      throw new PermanentCloudError(
        `deleting ${resource.kind} ${resource.id}: provider "${resource.provider}" is not configured or has no claim resources; accepted: ${accepted.join(', ') || 'none'}`,
      );
    }
    return provider.deleteClaimResource(resource);
  }

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    return this.forNodeClass(nodePool.spec.template.spec.nodeClassRef, `nodepool ${nodePool.metadata?.name ?? ''}`).getInstanceTypes(
      nodePool,
    );
  }

  async isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    return this.forNodeClass(nodeClaim.spec.nodeClassRef, `nodeclaim ${nodeClaim.metadata?.name ?? ''}`).isDrifted(nodeClaim);
  }

  detectedCluster(kind: string, name: string): Promise<DetectedCluster | undefined> {
    const route = this.routes.find((r) => r.provider.getSupportedNodeClasses().some((k) => k.kind === kind));
    return route?.provider.detectedCluster?.(kind, name) ?? Promise.resolve(undefined);
  }

  nodeClassFacts(kind: string, name: string): Promise<NodeClassCloudFacts | undefined> {
    const route = this.routes.find((r) => r.provider.getSupportedNodeClasses().some((k) => k.kind === kind));
    return route?.provider.nodeClassFacts?.(kind, name) ?? Promise.resolve(undefined);
  }

  async listRegions(): Promise<CloudRegions[]> {
    const lists = await Promise.all(
      this.routes.map(async ({ provider }) => {
        try {
          return (await provider.listRegions?.()) ?? [];
        } catch (error) {
          return [{ cloud: provider.name, error: error as Error }];
        }
      }),
    );
    return lists.flat();
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return this.routes.flatMap((r) => r.provider.getSupportedNodeClasses());
  }

  repairPolicies(): RepairPolicy[] {
    const seen = new Map<string, RepairPolicy>();
    for (const r of this.routes) for (const p of r.provider.repairPolicies()) seen.set(`${p.conditionType}=${p.conditionStatus}`, p);
    return [...seen.values()];
  }
}
