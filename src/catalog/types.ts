/**
 * The bundled instance-type catalogs: one JSON file per cloud under `data/`, each carrying its sources and
 * the date its facts were read. These are the shapes of those files. Prices are EUR per hour excl. VAT;
 * `null` means the price is not known from the sources (never invented).
 */
import type { CloudName } from '../apis/v1/labels.js';

export interface CatalogFile {
  cloud: CloudName;
  /** ISO date the facts were gathered. */
  retrieved: string;
  /** Where the facts come from: public pages, the cloud's own API paths, public captures of their answers. */
  sources: CatalogSource[];
  notes?: string[];
  regions: CatalogRegion[];
  flavors: CatalogFlavor[];
}

export interface CatalogSource {
  /** What it is and what it gives, e.g. the API call and the fields read. */
  title: string;
  /** A public https URL: the cloud's documentation or API, or a public capture of an API answer. */
  url: string;
  /** ISO date of the data (capture, publication) or, for live pages and APIs, when it was read. */
  date: string;
}

export interface CatalogRegion {
  /** The cloud's own region name: `GRA11`, `EU-WEST-PAR`, `fr-par`, `eu-west-2`. */
  name: string;
  /** Zones as they appear in `topology.kubernetes.io/zone` on nodes of this cloud. */
  zones: string[];
  location?: string;
}

export interface CatalogGpu {
  count: number;
  /** Normalised lower-case model name (`l4`, `l40s`, `h100`, `a100`, `a10`, `v100`, `v100s`, `rtx3070`, `rtx5000`, `p100`). */
  name: string;
  memoryMiB: number;
  manufacturer: 'nvidia' | 'amd';
  /** The cloud's own model name when it differs from `name` (Outscale flexible GPU `nvidia-a100-80`). */
  cloudModel?: string;
}

export interface CatalogPrice {
  /** Region this price applies to; `*` for every region the flavor is offered in. */
  region: string;
  hourly: number | null;
  /** Monthly price (OVH gen2 monthly billing); absent when the cloud has no monthly plan for the flavor. */
  monthly?: number | null;
  /** True when the figure is derived (a documented estimate), not read from a price list. */
  estimated?: boolean;
  /** Why a price is null or estimated: required in those cases. */
  note?: string;
}

export interface CatalogFlavor {
  /** The cloud's flavor / commercial type / VM type name: `b3-8`, `PRO2-S`, `L4-1-24G`, `tinav6.c4r8p2`. */
  name: string;
  family: string;
  generation: number;
  vcpus: number;
  memoryMiB: number;
  arch: 'amd64' | 'arm64';
  gpu?: CatalogGpu;
  /** Local (ephemeral) disk size in GiB, when the flavor has one. */
  localDiskGiB?: number;
  /** Regions where the flavor can be launched. */
  regions: string[];
  /** Zones where the flavor is offered, when only some zones of its regions have it (Scaleway GPUs). */
  zones?: string[];
  prices: CatalogPrice[];
  /** Where the specs come from when not the file-level sources, or what is uncertain about them. */
  note?: string;
}
