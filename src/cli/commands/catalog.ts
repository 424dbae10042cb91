/**
 * `karpenter-eu catalog --cloud C [--region R] [--billing hourly|monthly] [-o table|wide|json|yaml|name]`: the bundled
 * instance types of a cloud/region with capacity, allocatable, labels and the price per zone.
 */
import { CloudNames, type CloudName } from '../../apis/v1/labels.js';
import { type CatalogFile, isCloudName, loadCatalog } from '../../catalog/index.js';
import { buildInstanceTypes, findRegion, UnknownRegionError } from '../../domain/instancetypes/build.js';
import type { Billing } from '../../domain/instancetypes/pricing.js';
import type { InstanceType, ResourceList } from '../../domain/instancetypes/types.js';
import { type Command, type CommandIO, UsageError } from '../errors.js';
import { helpFlag, type OutputFormat, outputFlag, outputFormat, parseFlags } from '../flags.js';
import { columns, formatData } from '../output.js';

const HELP = `usage: karpenter-eu catalog --cloud CLOUD [--region REGION] [--billing hourly|monthly] [-o table|wide|json|yaml|name]

Prints the bundled instance types of a cloud: capacity, allocatable, labels and price per zone (EUR/hour).

options:
  --cloud    ${CloudNames.join(' | ')}
  --region   a region of that cloud (default: every region)
  --billing  hourly (default) or monthly (OVHcloud gen2 plans; price shown as monthly / 730 h)
  -o, --output  table (default), wide (adds the labels), json, yaml, or name (instancetype/NAME)
  -h, --help    this help
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

type CatalogFormat = Extract<OutputFormat, 'table' | 'wide' | 'json' | 'yaml' | 'name'>;

interface CatalogArgs {
  cloud: CloudName;
  region?: string;
  billing: Billing;
  output: CatalogFormat;
}

function parse(argv: string[]): CatalogArgs | 'help' {
  const { values } = parseFlags('catalog', argv, {
    cloud: { type: 'string' },
    region: { type: 'string' },
    billing: { type: 'string' },
    ...outputFlag,
    ...helpFlag,
  });
  if (values.help) return 'help';
  if (!values.cloud) throw new UsageError(`catalog: --cloud is required; accepted: ${CloudNames.join(', ')}`);
  const cloud = values.cloud.toLowerCase();
  if (!isCloudName(cloud)) throw new UsageError(`catalog: unknown cloud "${values.cloud}" for --cloud; accepted: ${CloudNames.join(', ')}`);
  const output = outputFormat('catalog', values.output, ['table', 'wide', 'json', 'yaml', 'name'] as const);
  const billing = (values.billing ?? 'hourly').toLowerCase();
  if (billing !== 'hourly' && billing !== 'monthly')
    throw new UsageError(`catalog: unknown billing "${values.billing}" for --billing; accepted: hourly, monthly`);
  return { cloud, billing, output, ...(values.region ? { region: values.region } : {}) };
}

function toJson(t: InstanceType): Record<string, unknown> {
  return {
    name: t.name,
    cloud: t.cloud,
    region: t.region,
    capacity: formatResources(t.capacity),
    allocatable: formatResources(t.allocatable),
    labels: t.labels,
    offerings: t.offerings.map((o) => ({
      zone: o.zone,
      capacityType: o.capacityType,
      pricePerHour: o.pricePerHour,
      available: o.available,
    })),
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

function row(t: InstanceType, wide: boolean): string[] {
  const cells = [
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
  ];
  if (wide)
    cells.push(
      Object.entries(t.labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',') || '-',
    );
  return cells;
}

/** Where the bundled figures come from, under the table: one source a line, with its date. */
function sourceLines(catalog: CatalogFile): string[] {
  return ['', 'Sources:', ...catalog.sources.map((s) => `  ${s.date}  ${s.title}\n              ${s.url}`)];
}

function table(types: InstanceType[], wide: boolean): string {
  const header = [
    'NAME',
    'REGION',
    'CPU',
    'MEMORY',
    'GPU',
    'ALLOC CPU',
    'ALLOC MEMORY',
    'PODS',
    'EUR/H',
    'ZONES',
    ...(wide ? ['LABELS'] : []),
  ];
  const footer = [
    '',
    '~ price estimated (see -o json priceNote); unknown = no price in the bundled catalog, no offerings.',
    ...(wide ? [] : ['Labels per type: -o wide or -o json.']),
  ];
  return columns([header, ...types.map((t) => row(t, wide))]) + footer.join('\n') + '\n';
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
    if (err instanceof UnknownRegionError)
      throw new UsageError(`catalog: unknown ${args.cloud} region "${args.region}" for --region; accepted: ${err.accepted.join(', ')}`);
    throw err;
  }
  const types = regions.flatMap((region) => buildInstanceTypes(catalog, region, { billing: args.billing }));
  const { output } = args;
  if (output === 'json' || output === 'yaml') {
    io.stdout(
      await formatData(output, {
        cloud: catalog.cloud,
        retrieved: catalog.retrieved,
        sources: catalog.sources,
        billing: args.billing,
        instanceTypes: types.map(toJson),
      }),
    );
  } else if (output === 'name') {
    io.stdout([...new Set(types.map((t) => `instancetype/${t.name}\n`))].join(''));
  } else {
    io.stdout(
      `${catalog.cloud} catalog (retrieved ${catalog.retrieved}, ${args.billing} billing, EUR/hour excl. VAT)\n\n` +
        table(types, output === 'wide') +
        sourceLines(catalog).join('\n') +
        '\n',
    );
  }
  return 0;
};
