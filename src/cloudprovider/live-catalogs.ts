/**
 * The catalogs admission answers from in the running service: the bundled files until a provider has read a
 * region from its cloud, then that region as the cloud listed it (mergeLiveInstanceTypes). The providers'
 * `getInstanceTypes` results are recorded as they pass (a decorator applied at the composition root), so
 * admission sees exactly the instance types provisioning plans with, at no extra cloud call. Region lists
 * are read apart (readRegionLists), as no provisioning call lists them.
 */
import type { CloudName } from '../apis/v1/labels.js';
import type { CatalogFile } from '../catalog/types.js';
import { decorateCloudProvider } from './decorate.js';
import type { CloudProvider } from './types.js';
import type { LiveCatalogScope } from '../domain/admission/index.js';
import { type LiveRegion, mergeLiveInstanceTypes, mergeLiveRegions, wholeRegionListOf } from '../domain/instancetypes/live-catalog.js';
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

  /** Every instance-type list that reaches the controllers is also recorded here; the other calls pass through. */
  recording(inner: CloudProvider): CloudProvider {
    return decorateCloudProvider(inner, {
      getInstanceTypes: (next) => async (nodePool) => {
        const types = await next(nodePool);
        const whole = wholeRegionListOf(types);
        if (whole) this.record(whole.cloud, whole.region, types);
        return types;
      },
    });
  }
}
