/**
 * `karpenter-eu plan -f PATH… [--output table|json]`: the offline provisioning plan (DESIGN.md §3) for the
 * Pods/workloads, Nodes, NodePools and NodeClasses in the files, priced with the bundled catalogs.
 * Exit codes: 0 a plan was computed (bad objects are reported one line each on stderr and left out;
 * unschedulable pods are part of the plan), 2 usage errors or input unusable as a whole (nothing readable,
 * no NodePool and no Node to place pods on).
 */
import type { CloudName } from '../../apis/v1/labels.js';
import { loadCatalog } from '../../catalog/index.js';
import { buildInstanceTypes } from '../../domain/instancetypes/build.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import { type NodeClassObject, schedulingInputFromManifests } from '../../domain/scheduling/manifest-input.js';
import { solve, type SchedulingResult } from '../../domain/scheduling/index.js';
import { type Command, type CommandIO, InputError, UsageError } from '../errors.js';
import { helpFlag, type OutputFormat, outputFlag, outputFormat, parseFlags } from '../flags.js';
import { readInputs } from '../inputs.js';
import { columns, formatData } from '../output.js';
import { admittedManifests, offlineDefaults } from './admitted-manifests.js';
import { formatResources } from './catalog.js';
import { type CatalogProvenance, catalogsOfObjects, provenanceLines } from './catalog-provenance.js';

const HELP = `usage: karpenter-eu plan -f PATH [-f PATH…] [-o table|wide|json|yaml]

Plans where the pending pods of the files would run: existing Nodes first, then new NodeClaims of the
NodePools (cheapest fitting offering), with the bundled price catalogs. Accepted kinds: Pod, Deployment,
StatefulSet, ReplicaSet, Job (expanded to <workload>-<i> pods), DaemonSet, Node, NodePool, OVHNodeClass,
ScalewayNodeClass, OutscaleNodeClass, NodeOverlay (karpenter.sh/v1alpha1: the prices and extended resources
the plan uses for the instance types it selects; the service applies them with --feature-gates NodeOverlay=true),
and resource.k8s.io/v1 ResourceClaim, ResourceClaimTemplate, DeviceClass, ResourceSlice: a pod with resource
claims is planned only on a flavor (or a Node's free ResourceSlice devices) that can allocate them.

options:
  -f, --filename  a YAML/JSON file, a directory (recursive) or - for standard input
                  (e.g. kubectl get pods -A -o json | karpenter-eu plan -f - -f nodepools.yaml); repeatable
  -o, --output    table (default), wide (adds capacity type and allocatable), json or yaml
  -h, --help      this help

The bundled catalogs answer: table and wide output name them and their date on stderr, json and yaml in
the plan's catalogs field ([{cloud, source: bundled, retrieved}]).
`;

/** Hours in a month as cloud price lists count them (OVHcloud, Scaleway: 730 h). */
const HOURS_PER_MONTH = 730;

type PlanFormat = Extract<OutputFormat, 'table' | 'wide' | 'json' | 'yaml'>;

function parse(argv: string[]): { files: string[]; output: PlanFormat } | 'help' {
  const { values } = parseFlags('plan', argv, { filename: { type: 'string', short: 'f', multiple: true }, ...outputFlag, ...helpFlag });
  if (values.help) return 'help';
  const files = values.filename ?? [];
  if (files.length === 0)
    throw new UsageError("plan: -f PATH is required (a file, a directory or - for standard input); see 'karpenter-eu plan --help'");
  return { files, output: outputFormat('plan', values.output, ['table', 'wide', 'json', 'yaml'] as const) };
}

const cloudByKind: Record<string, CloudName> = { OVHNodeClass: 'ovhcloud', ScalewayNodeClass: 'scaleway', OutscaleNodeClass: 'outscale' };

/** The bundled catalog's instance types for a NodeClass's cloud, region and billing. */
export function bundledInstanceTypes(nodeClass: NodeClassObject): InstanceType[] {
  const cloud = cloudByKind[nodeClass.kind] as CloudName;
  const spec = nodeClass.spec as { region?: string; zones?: string[]; zone?: string; monthlyBilled?: boolean };
  const zone = spec.zones?.[0] ?? spec.zone;
  const region = spec.region ?? zone?.replace(/-[0-9]+$/, '');
  if (!region) throw new Error(`${nodeClass.kind} ${nodeClass.name}: spec.region (or zones) is required to find its instance types`);
  return buildInstanceTypes(loadCatalog(cloud), region, { billing: spec.monthlyBilled ? 'monthly' : 'hourly' });
}

export function planJson(result: SchedulingResult, catalogs: readonly CatalogProvenance[] = []): unknown {
  return {
    nodeClaims: result.newNodeClaims.map((c) => ({
      nodePool: c.nodePool,
      nodeClass: { kind: c.nodeClassRef.kind, name: c.nodeClassRef.name },
      instanceType: c.instanceType,
      zone: c.zone,
      capacityType: c.capacityType,
      pricePerHour: c.pricePerHour,
      allocatable: formatResources(c.allocatable),
      pods: c.pods,
    })),
    existingNodes: result.existingNodeAssignments.map((a) => ({ node: a.node, pods: a.pods })),
    unschedulable: result.unschedulable,
    totalPricePerHour: result.totalPricePerHour,
    catalogs,
  };
}

/** The NodeClaims as rows; `wide` adds the capacity type and the allocatable cpu and memory. */
function claimRows(result: SchedulingResult, wide: boolean): string[][] {
  const header = [
    'NODECLAIM',
    'NODEPOOL',
    'INSTANCE-TYPE',
    'ZONE',
    ...(wide ? ['CAPACITY-TYPE', 'ALLOC-CPU', 'ALLOC-MEMORY'] : []),
    'EUR/HOUR',
    'PODS',
  ];
  const rows = result.newNodeClaims.map((c, i) => {
    const allocatable = formatResources(c.allocatable);
    const extra = wide ? [c.capacityType, allocatable.cpu ?? '-', allocatable.memory ?? '-'] : [];
    return [
      String(i + 1),
      c.nodePool,
      c.instanceType,
      c.zone,
      ...extra,
      c.pricePerHour.toFixed(4),
      `${c.pods.length}: ${c.pods.join(', ')}`,
    ];
  });
  return [header, ...rows];
}

export function planTable(result: SchedulingResult, wide = false): string {
  const out: string[] = [];
  out.push(result.newNodeClaims.length > 0 ? columns(claimRows(result, wide)) : 'no new NodeClaim needed\n');
  for (const a of result.existingNodeAssignments) out.push(`existing node ${a.node}: ${a.pods.join(', ')}\n`);
  for (const u of result.unschedulable) out.push(`unschedulable ${u.pod}: ${u.reason}\n`);
  const perHour = result.totalPricePerHour;
  out.push(
    `total: ${result.newNodeClaims.length} new NodeClaims, ${perHour.toFixed(4)} EUR/hour, ${(perHour * HOURS_PER_MONTH).toFixed(2)} EUR/month (${HOURS_PER_MONTH} h)\n`,
  );
  return out.join('');
}

export const planCommand: Command = async (argv: string[], io: CommandIO): Promise<number> => {
  const parsed = parse(argv);
  if (parsed === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const manifests = await readInputs('plan', parsed.files, io);
  for (const e of manifests.errors) io.stderr(`error: ${e.source}: ${e.message}\n`);
  if (manifests.objects.length === 0)
    throw new InputError(`plan: no object could be read from ${parsed.files.map((f) => (f === '-' ? 'standard input' : f)).join(', ')}`);
  const admitted = admittedManifests(manifests.objects, offlineDefaults(io.env));
  for (const w of admitted.warnings) io.stderr(`warning: ${w.source}: ${w.message}\n`);
  for (const d of admitted.denied) io.stderr(`error: ${d.source}: ${d.message}\n`);
  const { input, errors } = schedulingInputFromManifests(admitted.objects, bundledInstanceTypes);
  for (const e of errors) io.stderr(`error: ${e.source}: ${e.message}\n`);
  if (input.nodePools.length === 0 && (input.existingNodes ?? []).length === 0) {
    throw new InputError('plan: the input has no usable NodePool (with its NodeClass) and no Node: nothing to place pods on');
  }
  const result = solve(input);
  const { output } = parsed;
  const catalogs = catalogsOfObjects(admitted.objects.map((o) => o.object));
  if (output === 'json' || output === 'yaml') io.stdout(await formatData(output, planJson(result, catalogs)));
  else {
    io.stderr(provenanceLines(catalogs));
    io.stdout(planTable(result, output === 'wide'));
  }
  return 0;
};
