/**
 * `karpenter-eu validate -f PATH… [-o table|json|yaml|name]`: offline admission. Runs the webhooks' mutate +
 * validate on every NodePool, NodeClaim, NodeOverlay, NodeClass (and Pod: warnings, and the legacy selector no node carries refused) in the files; cross-object
 * checks see the other objects of the files. Exit 0 all admitted, 1 any denied, 2 usage or parse error.
 */
import { admitOffline, type AdmissionDefaults, isReviewedOffline, type KubeObject } from '../../domain/admission/index.js';
import { DeviceSelectorCompiler, draObjectProblems } from '../../domain/dra/index.js';
import type { JsonPatchOperation } from '../../util/json-patch.js';
import { type Command, type CommandIO, UsageError } from '../errors.js';
import { helpFlag, type OutputFormat, outputFlag, outputFormat, parseFlags } from '../flags.js';
import { readInputs } from '../inputs.js';
import { formatData } from '../output.js';
import { bundledCatalogs, offlineDefaults } from './admitted-manifests.js';
import { type CatalogProvenance, catalogsOfObject, catalogsOfObjects, provenanceLines } from './catalog-provenance.js';

const HELP = `usage: karpenter-eu validate -f PATH... [-o table|json|yaml|name] [--default-limits cpu=1000,memory=1000Gi] [--no-gpu-taint]

Runs the admission webhooks' mutate + validate offline on every NodePool, NodeClaim, NodeOverlay,
OVHNodeClass, ScalewayNodeClass and OutscaleNodeClass in the files or directories (and warns about Pods no
NodePool could place); DeviceClasses, ResourceClaims and ResourceClaimTemplates (resource.k8s.io/v1) are
checked as kube-apiserver checks them (requests well formed, CEL selectors compile). Exit 0 when all are admitted, 1 when any is denied, 2 on a usage or parse error.

options:
  -f, --filename      a YAML/JSON file, a directory or - for standard input (repeatable; extra paths may follow)
  -o, --output        table (default); json or yaml: [{kind, name, allowed, message, warnings, patch,
                      catalogs}]; name: kind.group/name of each admitted object
  --default-limits    limits filled into NodePools without spec.limits (resource=quantity,...)
  --no-gpu-taint      do not add the nvidia.com/gpu taint to GPU-only NodePools
  -h, --help          this help

Global credentials count as configured when OVH_APPLICATION_KEY, SCW_SECRET_KEY or OSC_ACCESS_KEY is set.
Offline, the bundled catalogs answer: table and name output say which and of what date on stderr, json and
yaml in each entry's catalogs ([{cloud, source: bundled, retrieved}]).
`;

export interface ValidateEntry {
  kind: string;
  name: string;
  allowed: boolean;
  message: string;
  warnings: string[];
  patch: JsonPatchOperation[];
  /** The catalogs that answered for this object. */
  catalogs: CatalogProvenance[];
}

type ValidateFormat = Extract<OutputFormat, 'table' | 'json' | 'yaml' | 'name'>;

interface Options {
  paths: string[];
  output: ValidateFormat;
  defaultLimits?: Record<string, string>;
  gpuTaint: boolean;
}

function parseLimits(text: string): Record<string, string> {
  const limits: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [name, value, extra] = pair.split('=');
    if (!name || !value || extra !== undefined)
      throw new UsageError(
        `validate: --default-limits entry ${JSON.stringify(pair)} is not resource=quantity (e.g. cpu=1000,memory=1000Gi)`,
      );
    limits[name.trim()] = value.trim();
  }
  return limits;
}

function parse(argv: string[]): Options | 'help' {
  const flags = {
    filename: { type: 'string', short: 'f', multiple: true },
    ...outputFlag,
    'default-limits': { type: 'string' },
    'no-gpu-taint': { type: 'boolean' },
    ...helpFlag,
  } as const;
  const { values, positionals } = parseFlags('validate', argv, flags, true);
  if (values.help) return 'help';
  const paths = [...(values.filename ?? []), ...(values.filename ? positionals : [])];
  if (paths.length === 0 || (positionals.length > 0 && !values.filename)) {
    throw new UsageError("validate: -f PATH is required (a file, a directory or - for standard input); see 'karpenter-eu validate --help'");
  }
  const output = outputFormat('validate', values.output, ['table', 'json', 'yaml', 'name'] as const);
  return {
    paths,
    output,
    gpuTaint: !values['no-gpu-taint'],
    ...(values['default-limits'] ? { defaultLimits: parseLimits(values['default-limits']) } : {}),
  };
}

function defaultsFrom(options: Options, env: CommandIO['env']): AdmissionDefaults {
  return offlineDefaults(env, { gpuTaint: options.gpuTaint, ...(options.defaultLimits ? { limits: options.defaultLimits } : {}) });
}

const nameOf = (o: KubeObject): string => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');

/** Admits every owned object (and Pod) against the others in the set. */
export function validateObjects(objects: readonly KubeObject[], defaults: AdmissionDefaults): ValidateEntry[] {
  const catalogs = catalogsOfObjects(objects);
  const admitted = admitOffline(objects, bundledCatalogs(), defaults).map(({ original, outcome }) => ({
    kind: String(original.kind),
    name: nameOf(original),
    allowed: outcome.allowed,
    message: outcome.message,
    warnings: outcome.warnings,
    // The webhooks patch nothing: defaults are applied when the service reads a NodePool, never stored.
    patch: [],
    catalogs: catalogsOfObject(original, catalogs),
  }));
  return [...admitted, ...draEntries(objects)];
}

/** DeviceClasses, ResourceClaims and ResourceClaimTemplates, checked as kube-apiserver checks them (selectors compile). */
function draEntries(objects: readonly KubeObject[]): ValidateEntry[] {
  const compiler = new DeviceSelectorCompiler();
  return objects.flatMap((object) => {
    const problems = draObjectProblems(object, compiler);
    if (problems === undefined) return [];
    const entry = { kind: String(object.kind), name: nameOf(object), allowed: problems.length === 0, message: problems.join('; ') };
    return [{ ...entry, warnings: [], patch: [], catalogs: [] }];
  });
}

/** kubectl's `-o name`: `nodepool.karpenter.sh/default`, `pod/web` (core group). */
function resourceName(object: KubeObject): string {
  const apiVersion = String(object.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return `${String(object.kind).toLowerCase()}${group ? `.${group}` : ''}/${nameOf(object)}`;
}

function printTable(entries: readonly ValidateEntry[], io: CommandIO): void {
  for (const e of entries) {
    io.stdout(`${e.kind}/${e.name}: ${e.allowed ? 'admitted' : `denied: ${e.message}`}\n`);
    for (const w of e.warnings) io.stdout(`  warning: ${w}\n`);
  }
  const denied = entries.filter((e) => !e.allowed).length;
  io.stdout(`${entries.length - denied} admitted, ${denied} denied\n`);
}

/** Admitted objects' names on stdout (for `| xargs`), the denied ones with their reason on stderr. */
function printNames(objects: readonly KubeObject[], entries: readonly ValidateEntry[], io: CommandIO): void {
  const checked = objects.filter(isReviewedOffline);
  entries.forEach((e, i) => {
    const object = checked[i] as KubeObject;
    if (e.allowed) io.stdout(`${resourceName(object)}\n`);
    else io.stderr(`error: ${resourceName(object)} denied: ${e.message}\n`);
  });
}

export const validateCommand: Command = async (argv, io) => {
  const options = parse(argv);
  if (options === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const manifests = await readInputs('validate', options.paths, io);
  if (manifests.errors.length > 0) {
    for (const e of manifests.errors) io.stderr(`error: ${e.source}: ${e.message}\n`);
    return 2;
  }
  const objects = manifests.objects.map((m) => m.object);
  const entries = validateObjects(objects, defaultsFrom(options, io.env));
  if (options.output === 'json' || options.output === 'yaml') io.stdout(await formatData(options.output, entries));
  else {
    io.stderr(provenanceLines(catalogsOfObjects(objects)));
    if (options.output === 'name') printNames(objects, entries, io);
    else printTable(entries, io);
  }
  return entries.every((e) => e.allowed) ? 0 : 1;
};
