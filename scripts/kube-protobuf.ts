/**
 * Regenerates src/testbed/cluster/apiserver/protobuf/kube-protos.json: the protobuf messages of the built-in kinds the
 * simulated API server serves, as kube-apiserver encodes them (`application/vnd.kubernetes.protobuf`), and how each
 * scalar field's Go type decides its JSON form (a pointer keeps a zero value, `omitempty` drops it).
 *   npx tsx scripts/kube-protobuf.ts <kubernetes/api checkout> <kubernetes/apimachinery checkout> <tag, e.g. v0.32.9>
 * The checkouts are read with `git show <tag>:<path>`, so the working trees need not be at the tag.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(repoRoot, 'src', 'testbed', 'cluster', 'apiserver', 'protobuf', 'kube-protos.json');

/** Proto packages by import path, and the Go package directory whose structs they were generated from. */
const apimachinery = ['pkg/apis/meta/v1', 'pkg/runtime', 'pkg/runtime/schema', 'pkg/api/resource', 'pkg/util/intstr'];
/** The API groups with kinds the simulated server has built in (apiextensions lives in another repository). */
const apiGroups = [
  'core/v1',
  'apps/v1',
  'autoscaling/v1',
  'policy/v1',
  'storage/v1',
  'coordination/v1',
  'rbac/v1',
  'networking/v1',
  'admissionregistration/v1',
];

function gitShow(checkout: string, tag: string, path: string): string {
  return execFileSync('git', ['-C', checkout, 'show', `${tag}:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

function goFiles(checkout: string, tag: string, dir: string): string[] {
  const names = execFileSync('git', ['-C', checkout, 'ls-tree', '--name-only', `${tag}:${dir}`], { encoding: 'utf8' })
    .split('\n')
    .filter((n) => n.endsWith('.go') && !n.endsWith('_test.go') && !/generated/.test(n));
  return names.map((n) => gitShow(checkout, tag, `${dir}/${n}`));
}

/**
 * `p`: a pointer (a zero value on the wire is kept); `o`: a value with `omitempty` (a zero value is dropped);
 * `i`: an embedded struct whose fields JSON prints inline (Probe's handler, Volume's volumeSource).
 */
type FieldForm = 'p' | 'o' | 'i';

/** Struct fields with a protobuf tag: proto field name → its Go form, per struct name. */
function goFieldForms(sources: string[]): Map<string, Record<string, FieldForm>> {
  const structs = new Map<string, Record<string, FieldForm>>();
  for (const source of sources) {
    for (const match of source.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields: Record<string, FieldForm> = {};
      for (const line of (match[2] ?? '').split('\n')) {
        const field = /^\s+(?:\w+\s+)?(\*?)[\w.[\]*]+\s+`([^`]*)`/.exec(line);
        const proto = /protobuf:"[^"]*name=(\w+)/.exec(field?.[2] ?? '');
        if (!field || !proto?.[1]) continue;
        if (/json:",inline/.test(field[2] ?? '')) fields[proto[1]] = 'i';
        else if (field[1] === '*') fields[proto[1]] = 'p';
        else if (/json:"[^"]*,omitempty/.test(field[2] ?? '')) fields[proto[1]] = 'o';
      }
      structs.set(match[1] ?? '', fields);
    }
  }
  return structs;
}

function main(): void {
  const [apiCheckout, machineryCheckout, tag] = process.argv.slice(2);
  if (!apiCheckout || !machineryCheckout || !tag) {
    console.error('usage: tsx scripts/kube-protobuf.ts <kubernetes/api checkout> <kubernetes/apimachinery checkout> <tag>');
    process.exit(2);
  }
  const root = new protobuf.Root();
  const forms: Record<string, Record<string, FieldForm>> = {};
  const packages = [
    ...apimachinery.map((dir) => ({ checkout: machineryCheckout, dir, pkg: `k8s.io.apimachinery.${dir.replace(/\//g, '.')}` })),
    ...apiGroups.map((dir) => ({ checkout: apiCheckout, dir, pkg: `k8s.io.api.${dir.replace(/\//g, '.')}` })),
  ];
  for (const { checkout, dir, pkg } of packages) {
    protobuf.parse(gitShow(checkout, tag, `${dir}/generated.proto`), root, { keepCase: true, alternateCommentMode: false });
    for (const [struct, fields] of goFieldForms(goFiles(checkout, tag, dir))) {
      if (Object.keys(fields).length > 0 && root.lookup(`${pkg}.${struct}`)) forms[`${pkg}.${struct}`] = fields;
    }
  }
  root.resolveAll();
  const document = { source: `kubernetes/api and kubernetes/apimachinery ${tag}`, fieldForms: forms, descriptor: root.toJSON() };
  writeFileSync(output, `${JSON.stringify(document)}\n`);
  console.log(`${output}: ${Object.keys(forms).length} structs`);
}

main();
