/**
 * Hourly prices of instance types from the bundled catalogs, looked up by a node's labels (cloud, instance
 * type, region). What the extender scores with and what the demo's cost summary adds up.
 */
import { LabelCloud, LabelInstanceType, LabelTopologyRegion, LabelTopologyZone, type CloudName } from '../apis/v1/labels.js';
import type { CatalogFile } from '../catalog/types.js';

export class CatalogPriceBook {
  // `<cloud>/<flavor>/<region>` -> EUR per hour
  private readonly prices = new Map<string, number>();
  // `<cloud>/<zone>` -> region
  private readonly regionOfZone = new Map<string, string>();

  constructor(catalogs: Readonly<Partial<Record<CloudName, CatalogFile>>>) {
    for (const [cloud, catalog] of Object.entries(catalogs)) {
      for (const region of catalog?.regions ?? []) for (const zone of region.zones) this.regionOfZone.set(`${cloud}/${zone}`, region.name);
      for (const flavor of catalog?.flavors ?? []) {
        for (const price of flavor.prices) {
          if (price.hourly !== null) this.prices.set(`${cloud}/${flavor.name}/${price.region}`, price.hourly);
        }
      }
    }
  }

  /** A catalog price for region `*` holds in every region. */
  hourly(cloud: string, instanceType: string, region: string): number | undefined {
    return this.prices.get(`${cloud}/${instanceType}/${region}`) ?? this.prices.get(`${cloud}/${instanceType}/*`);
  }

  /** The price by zone, for objects that carry a zone label but no region label. */
  hourlyInZone(cloud: string, instanceType: string, zone: string): number | undefined {
    const region = this.regionOfZone.get(`${cloud}/${zone}`);
    return region === undefined ? undefined : this.hourly(cloud, instanceType, region);
  }

  /** The price of the node these labels describe, undefined when a label is missing or the flavor unknown. */
  hourlyForLabels(labels: Readonly<Record<string, string>> | undefined): number | undefined {
    const cloud = labels?.[LabelCloud];
    const type = labels?.[LabelInstanceType];
    const region = labels?.[LabelTopologyRegion];
    const zone = labels?.[LabelTopologyZone];
    if (!cloud || !type) return undefined;
    return (region ? this.hourly(cloud, type, region) : undefined) ?? (zone ? this.hourlyInZone(cloud, type, zone) : undefined);
  }
}
