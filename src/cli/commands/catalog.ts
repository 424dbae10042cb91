/**
 * `karpenter-eu catalog --cloud C [--region R] [--billing hourly|monthly] [--output json|table]`: the bundled
 * instance types of a cloud/region with capacity, allocatable, labels and the price per zone.
 */
import { parseArgs } from 'node:util';
import { CloudNames, type CloudName } from '../../apis/v1/labels.js';
import { isCloudName, loadCatalog } from '../../catalog/index.js';
import { buildInstanceTypes, findRegion, UnknownRegionError } from '../../domain/instancetypes/build.js';
import type { Billing } from '../../domain/instancetypes/pricing.js';
import type { InstanceType, ResourceList } from '../../domain/instancetypes/types.js';
import { type Command, type CommandIO, UsageError } from '../errors.js';

const HELP = `usage: karpenter-eu catalog --cloud CLOUD [--region REGION] [--billing hourly|monthly] [--output table|json]

Prints the bundled instance types of a cloud: capacity, allocatable, labels and price per zone (EUR/hour).

options:
  --cloud    ${CloudNames.join(' | ')}
  --region   a region of that cloud (default: every region)
  --billing  hourly (default) or monthly (OVHcloud gen2 plans; price shown as monthly / 730 h)
  --output   table (default) or json
  -h, --help this help
`;

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** Kubernetes quantity strings for the JSON output: cpu in millicores, bytes as Mi. */
export function formatResources(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(list)) {
    if (name === 'cpu') out[name] = value % 1000 === 0 ? String(value / 1000) : `${value}m`;
    else if (name === 'memory' || name === 'ephemeral-storage') out[name] = value % MiB === 0 ? `${value / MiB}Mi` : String(value);
    else out[name] = String(value);
  }
  return out;
}

function parse(argv: string[]): { cloud: CloudName; region?: string; billing: Billing; output: 'json' | 'table' } | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { cloud: { type: 'string' }, region: { type: 'string' }, billing: { type: 'string' }, output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`catalog: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (values.help) return 'help';
  if (!values.cloud) throw new UsageError(`catalog: --cloud is required; accepted: ${CloudNames.join(', ')}`);
  if (!isCloudName(values.cloud)) throw new UsageError(`catalog: unknown cloud "${values.cloud}" for --cloud; accepted: ${CloudNames.join(', ')}`);
  const output = values.output ?? 'table';
  if (output !== 'json' && output !== 'table') throw new UsageError(`catalog: unknown output "${output}" for --output; accepted: table, json`);
  const billing = values.billing ?? 'hourly';
  if (billing !== 'hourly' && billing !== 'monthly') throw new UsageError(`catalog: unknown billing "${billing}" for --billing; accepted: hourly, monthly`);
  return { cloud: values.cloud, billing, output, ...(values.region ? { region: values.region } : {}) };
}

function toJson(t: InstanceType): Record<string, unknown> {
  return {
    name: t.name,
    cloud: t.cloud,
    region: t.region,
    capacity: formatResources(t.capacity),
    allocatable: formatResources(t.allocatable),
    labels: t.labels,
    offerings: t.offerings.map((o) => ({ zone: o.zone, capacityType: o.capacityType, pricePerHour: o.pricePerHour, available: o.available })),
    ...(t.gpu ? { gpu: t.gpu } : {}),
    ...(t.priceNote ? { priceNote: t.priceNote } : {}),
  };
}

const cpu = (m: number): string => (m % 1000 === 0 ? String(m / 1000) : (m / 1000).toFixed(2));
const gib = (bytes: number): string => `${(bytes / GiB).toFixed(1)}Gi`;

function priceCell(t: InstanceType): string {
  if (t.offerings.length === 0) return 'unknown';
  const prices = [...new Set(t.offerings.map((o) => o.pricePerHour))];
  const text = prices.map((p) => p.toFixed(4)).join('/');
  return t.priceNote ? `~${text}` : text;
}

function table(types: InstanceType[]): string {
  const header = ['NAME', 'REGION', 'CPU', 'MEMORY', 'GPU', 'ALLOC CPU', 'ALLOC MEMORY', 'PODS', 'EUR/H', 'ZONES'];
  const rows = types.map((t) => [
    t.name,
    t.region,
    cpu(t.capacity.cpu ?? 0),
    gib(t.capacity.memory ?? 0),
    t.gpu ? `${t.gpu.count}x${t.gpu.name}` : '-',
    cpu(t.allocatable.cpu ?? 0),
    gib(t.allocatable.memory ?? 0),
    String(t.allocatable.pods ?? 0),
    priceCell(t),
    t.offerings.map((o) => (o.available ? o.zone : `${o.zone}(unavailable)`)).join(',') || '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const footer = ['', '~ price estimated (see --output json priceNote); unknown = no price in the bundled catalog, no offerings.', 'Labels per type: --output json.'];
  return [line(header), ...rows.map(line), ...footer].join('\n') + '\n';
}

export const catalogCommand: Command = async (argv: string[], io: CommandIO): Promise<number> => {
  const args = parse(argv);
  if (args === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const catalog = loadCatalog(args.cloud);
  let regions: string[];
  try {
    regions = args.region ? [findRegion(catalog, args.region).name] : catalog.regions.map((r) => r.name);
  } catch (err) {
    if (err instanceof UnknownRegionError) throw new UsageError(`catalog: unknown ${args.cloud} region "${args.region}" for --region; accepted: ${err.accepted.join(', ')}`);
    throw err;
  }
  const types = regions.flatMap((region) => buildInstanceTypes(catalog, region, { billing: args.billing }));
  if (args.output === 'json') {
    io.stdout(JSON.stringify({ cloud: catalog.cloud, retrieved: catalog.retrieved, sources: catalog.sources, billing: args.billing, instanceTypes: types.map(toJson) }, null, 2) + '\n');
  } else {
    io.stdout(`${catalog.cloud} catalog (retrieved ${catalog.retrieved}, ${args.billing} billing, EUR/hour excl. VAT)\n\n` + table(types));
  }
  return 0;
};
