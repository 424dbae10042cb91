/**
 * `karpenter-eu validate -f PATH… [--output text|json]`: offline admission. Runs the webhooks' mutate +
 * validate on every NodePool, NodeClaim, NodeClass (and Pod, warnings only) in the files; cross-object
 * checks see the other objects of the files. Exit 0 all admitted, 1 any denied, 2 usage or parse error.
 */
import { parseArgs } from 'node:util';
import { admitOffline, type AdmissionDefaults, type KubeObject } from '../../domain/admission/index.js';
import type { JsonPatchOperation } from '../../util/json-patch.js';
import { readManifestPaths } from '../../util/manifest-files.js';
import { type Command, type CommandIO, UsageError } from '../errors.js';
import { bundledCatalogs, offlineDefaults } from './admitted-manifests.js';

const HELP = `usage: karpenter-eu validate -f PATH... [--output text|json] [--default-limits cpu=1000,memory=1000Gi] [--no-gpu-taint]

Runs the admission webhooks' mutate + validate offline on every NodePool, NodeClaim, OVHNodeClass,
ScalewayNodeClass and OutscaleNodeClass in the files or directories (and warns about Pods no NodePool
could place). Exit 0 when all are admitted, 1 when any is denied, 2 on a usage or parse error.

options:
  -f, --filename      a YAML/JSON file or a directory (repeatable; extra paths may follow)
  -o, --output        text (default) or json: [{kind, name, allowed, message, warnings, patch}]
  --default-limits    limits filled into NodePools without spec.limits (resource=quantity,...)
  --no-gpu-taint      do not add the nvidia.com/gpu taint to GPU-only NodePools
  -h, --help          this help

Global credentials count as configured when OVH_APPLICATION_KEY, SCW_SECRET_KEY or OSC_ACCESS_KEY is set.
`;

export interface ValidateEntry {
  kind: string;
  name: string;
  allowed: boolean;
  message: string;
  warnings: string[];
  patch: JsonPatchOperation[];
}

interface Options {
  paths: string[];
  output: 'text' | 'json';
  defaultLimits?: Record<string, string>;
  gpuTaint: boolean;
}

function parseLimits(text: string): Record<string, string> {
  const limits: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [name, value, extra] = pair.split('=');
    if (!name || !value || extra !== undefined) throw new UsageError(`validate: --default-limits entry ${JSON.stringify(pair)} is not resource=quantity (e.g. cpu=1000,memory=1000Gi)`);
    limits[name.trim()] = value.trim();
  }
  return limits;
}

function parse(argv: string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        filename: { type: 'string', short: 'f', multiple: true },
        output: { type: 'string', short: 'o' },
        'default-limits': { type: 'string' },
        'no-gpu-taint': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`validate: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const paths = [...(values.filename ?? []), ...(values.filename ? positionals : [])];
  if (paths.length === 0 || (positionals.length > 0 && !values.filename)) throw new UsageError('validate: -f PATH is required (a file or directory of manifests)');
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`validate: unknown output "${output}" for --output; accepted: text, json`);
  return { paths, output, gpuTaint: !values['no-gpu-taint'], ...(values['default-limits'] ? { defaultLimits: parseLimits(values['default-limits']) } : {}) };
}

function defaultsFrom(options: Options, env: CommandIO['env']): AdmissionDefaults {
  return offlineDefaults(env, { gpuTaint: options.gpuTaint, ...(options.defaultLimits ? { limits: options.defaultLimits } : {}) });
}

const nameOf = (o: KubeObject): string => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');

/** Admits every owned object (and Pod) against the others in the set. */
export function validateObjects(objects: readonly KubeObject[], defaults: AdmissionDefaults): ValidateEntry[] {
  return admitOffline(objects, bundledCatalogs(), defaults).map(({ original, outcome }) => ({
    kind: String(original.kind),
    name: nameOf(original),
    allowed: outcome.allowed,
    message: outcome.message,
    warnings: outcome.warnings,
    patch: outcome.patch,
  }));
}

function printText(entries: readonly ValidateEntry[], io: CommandIO): void {
  for (const e of entries) {
    io.stdout(`${e.kind}/${e.name}: ${e.allowed ? 'admitted' : `denied: ${e.message}`}\n`);
    for (const w of e.warnings) io.stdout(`  warning: ${w}\n`);
  }
  const denied = entries.filter((e) => !e.allowed).length;
  io.stdout(`${entries.length - denied} admitted, ${denied} denied\n`);
}

export const validateCommand: Command = async (argv, io) => {
  const options = parse(argv);
  if (options === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const manifests = readManifestPaths(options.paths);
  if (manifests.errors.length > 0) {
    for (const e of manifests.errors) io.stderr(`error: ${e.source}: ${e.message}\n`);
    return 2;
  }
  const entries = validateObjects(manifests.objects.map((m) => m.object), defaultsFrom(options, io.env));
  if (options.output === 'json') io.stdout(JSON.stringify(entries, null, 2) + '\n');
  else printText(entries, io);
  return entries.every((e) => e.allowed) ? 0 : 1;
};
