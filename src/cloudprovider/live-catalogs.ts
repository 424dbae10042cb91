/**
 * The catalogs admission answers from in the running service: the bundled files until a provider has read a
 * region from its cloud, then that region as the cloud listed it (mergeLiveInstanceTypes). The providers'
 * `getInstanceTypes` results are recorded as they pass (a decorator applied at the composition root), so
 * admission sees exactly the instance types provisioning plans with, at no extra cloud call. Region lists
 * are read apart (readRegionLists), as no provisioning call lists them.
 */
import type { CloudName } from '../apis/v1/labels.js';
import type { CatalogFile } from '../catalog/types.js';
import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  DetectedCluster,
  NodeClassCloudFacts,
  DriftReason,
  NodeClassKind,
  RepairPolicy,
} from './types.js';
import type { LiveCatalogScope } from '../domain/admission/index.js';
import { type LiveRegion, mergeLiveInstanceTypes, mergeLiveRegions } from '../domain/instancetypes/live-catalog.js';
import type { InstanceType } from '../domain/instancetypes/types.js';

type Catalogs = Readonly<Partial<Record<CloudName, CatalogFile>>>;

export interface CatalogView {
  catalogs: Catalogs;
  liveCatalogs: Readonly<Partial<Record<CloudName, LiveCatalogScope>>>;
}

export class LiveCatalogs {
  private view: CatalogView;

  constructor(bundled: Catalogs) {
    this.view = { catalogs: bundled, liveCatalogs: {} };
  }

  /** What admission reads now (a new object after each change, so derived caches key on it). */
  current(): CatalogView {
    return this.view;
  }

  /** Records the instance types a provider read for one cloud and region. */
  record(cloud: CloudName, region: string, types: readonly InstanceType[]): void {
    const catalog = this.view.catalogs[cloud];
    if (!catalog) return;
    const scope = this.view.liveCatalogs[cloud] ?? { regionsListed: false, flavorsOf: [] };
    this.view = {
      catalogs: { ...this.view.catalogs, [cloud]: mergeLiveInstanceTypes(catalog, region, types) },
      liveCatalogs: {
        ...this.view.liveCatalogs,
        [cloud]: { ...scope, flavorsOf: scope.flavorsOf.includes(region) ? scope.flavorsOf : [...scope.flavorsOf, region] },
      },
    };
  }

  /** Records a cloud's region list: from then on a region it lacks is denied, not warned about. */
  recordRegions(cloud: CloudName, regions: readonly LiveRegion[]): void {
    const catalog = this.view.catalogs[cloud];
    if (!catalog || regions.length === 0) return;
    const scope = this.view.liveCatalogs[cloud] ?? { regionsListed: false, flavorsOf: [] };
    this.view = {
      catalogs: { ...this.view.catalogs, [cloud]: mergeLiveRegions(catalog, regions) },
      liveCatalogs: { ...this.view.liveCatalogs, [cloud]: { ...scope, regionsListed: true } },
    };
  }

  /** Every instance-type list that reaches the controllers is also recorded here. */
  recording(inner: CloudProvider): CloudProvider {
    return new RecordingCloudProvider(inner, this);
  }
}

class RecordingCloudProvider implements CloudProvider {
  readonly name: string;

  constructor(
    private readonly inner: CloudProvider,
    private readonly live: LiveCatalogs,
  ) {
    this.name = inner.name;
  }

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    const types = await this.inner.getInstanceTypes(nodePool);
    const first = types[0];
    // One NodeClass is one cloud and one region; an empty answer proves nothing (a NodeClass not ready).
    if (first && types.every((t) => t.cloud === first.cloud && t.region === first.region))
      this.live.record(first.cloud, first.region, types);
    return types;
  }

  create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    return this.inner.create(nodeClaim);
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
