/**
 * `karpenter-eu convert -f FILE… [--api-server URL]`: the Karpenter objects users run today (a v1alpha5
 * Provisioner, the Scaleway GPU controller's capacity type and labels, the existing OVHcloud provider's
 * OVHNodeClass, AWS node templates where they map) as this project's NodePool/NodeClass YAML on stdout (with
 * the Secrets they name and the pods rewritten), a comment on every field changed or dropped, and each
 * placeholder left named on stderr. Exit 0 when something was converted, 2 when nothing could be.
 */
import { parseArgs } from 'node:util';
import { Document, isCollection, isScalar } from 'yaml';
import { convertObjects, type ConvertedDocument } from '../../domain/convert/index.js';
import { readManifestPaths } from '../../util/manifest-files.js';
import { type Command, InputError, UsageError } from '../errors.js';

const HELP = `usage: karpenter-eu convert -f PATH [-f PATH…] [--api-server URL]

Turns a karpenter.sh/v1alpha5 Provisioner (with its AWSNodeTemplate's tags and userData), the Scaleway GPU
controller's capacity type "scaleway-gpu" and karpenter.sh/instance-type labels, and the existing OVHcloud
provider's OVHNodeClass into karpenter-eu NodePool and NodeClass YAML on stdout, with a comment on every
field it changed or could not carry. The Secrets a NodeClass names come first, in the karpenter namespace with
the label karpenter-eu.io/nodeclass-secret=true; pods and workloads selecting karpenter.sh/instance-type are
rewritten (and GPU pods tolerate the GPU NodePools' taint). Each field left with a placeholder (<...>) is named
on stderr, one line each ("placeholder: KIND NAME FIELD: VALUE"). Check with: karpenter-eu validate -f OUT.yaml

options:
  -f, --filename   a YAML/JSON file or a directory (repeatable)
  --api-server     HTTPS URL of the API server nodes join (Scaleway NodeClasses)
  -h, --help       this help
`;

function parse(argv: string[]): { files: string[]; apiServer?: string } | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        filename: { type: 'string', short: 'f', multiple: true },
        'api-server': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`convert: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (values.help) return 'help';
  const files = values.filename ?? [];
  if (files.length === 0) throw new UsageError('convert: -f PATH is required (the files holding the Provisioner, Secret and NodeClass)');
  const apiServer = values['api-server'];
  if (apiServer !== undefined && !/^https:\/\/[^\s/:]+(:[0-9]{1,5})?(\/\S*)?$/.test(apiServer)) {
    throw new UsageError(
      `convert: --api-server ${JSON.stringify(apiServer)} is not an https:// URL of the API server (e.g. https://10.0.0.1:6443)`,
    );
  }
  return { files, ...(apiServer ? { apiServer } : {}) };
}

/** One YAML document with each note as a comment on the field it is about. */
export function renderDocument(converted: ConvertedDocument): string {
  const doc = new Document(converted.object);
  const byPath = new Map<string, { path: (string | number)[]; comments: string[] }>();
  for (const note of converted.notes) {
    const key = JSON.stringify(note.path);
    const entry = byPath.get(key) ?? { path: note.path, comments: [] };
    entry.comments.push(note.comment);
    byPath.set(key, entry);
  }
  const header: string[] = [`from ${converted.source}`];
  for (const { path, comments } of byPath.values()) {
    const text = comments.map((c) => ` ${c}`).join('\n');
    const node = path.length === 0 ? undefined : doc.getIn(path, true);
    if (isScalar(node)) node.comment = ` ${comments.join('; ')}`;
    else if (isCollection(node)) node.commentBefore = node.commentBefore ? `${node.commentBefore}\n${text}` : text;
    else header.push(...comments.map((c) => (path.length === 0 ? c : `${path.join('.')}: ${c}`)));
  }
  doc.commentBefore = header.map((c) => ` ${c}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

export const convertCommand: Command = async (argv, io) => {
  const parsed = parse(argv);
  if (parsed === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const manifests = readManifestPaths(parsed.files);
  for (const e of manifests.errors) io.stderr(`error: ${e.source}: ${e.message}\n`);
  if (manifests.objects.length === 0) throw new InputError(`convert: no object could be read from ${parsed.files.join(', ')}`);
  const result = convertObjects(manifests.objects, parsed.apiServer ? { apiServerEndpoint: parsed.apiServer } : {});
  for (const s of result.skipped) io.stderr(`skipped: ${s.source}: ${s.reason}\n`);
  if (result.documents.length === 0)
    throw new InputError(
      'convert: nothing to convert (no karpenter.sh/v1alpha5 Provisioner or OVHcloud provider OVHNodeClass in the input)',
    );
  for (const p of result.placeholders) io.stderr(`placeholder: ${p.kind} ${p.name} ${p.path}: ${JSON.stringify(p.value)}\n`);
  io.stdout(result.documents.map(renderDocument).join('---\n'));
  return 0;
};
