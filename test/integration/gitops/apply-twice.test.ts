/**
 * GitOps-clean objects: every example NodePool and NodeClass (manifests/examples and the users' seeds) is
 * server-side applied twice with the real kubectl 1.31 to the demo cluster, the service and its webhooks running.
 * `kubectl diff --server-side` must then be empty, and the stored `spec` must be exactly the manifest with the
 * CRD's own schema defaults: what a GitOps tool diffing without a server-side dry run (Argo CD's default) compares.
 * Names get a per-file prefix so the documents, which reuse `default`, do not overwrite one another. Applied as
 * a GitOps tool does, all documents of a kind in one apply.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applySchemaDefaults } from '../../../src/testbed/cluster/apiserver/structural-defaulting.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

type Json = Record<string, unknown> & { kind: string; metadata: { name: string }; spec?: Record<string, unknown> };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const kinds = new Set(['NodePool', 'OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass']);
const sources = [
  'manifests/examples/ovhcloud/nodeclass.yaml',
  'manifests/examples/ovhcloud/nodepools.yaml',
  'manifests/examples/scaleway/nodeclass.yaml',
  'manifests/examples/scaleway/nodepools.yaml',
  'manifests/examples/outscale/nodeclass.yaml',
  'manifests/examples/outscale/nodepools.yaml',
  'test/fixtures/seeds/000-scaleway-gpu-controller.yaml',
  'test/fixtures/seeds/001-ovhcloud-mks-guide.yaml',
  'test/fixtures/seeds/001-rbx-a.yaml',
  'test/fixtures/seeds/002-ovhcloud-provider-readme.yaml',
  'test/fixtures/seeds/003-outscale-provider-howto.yaml',
  'test/fixtures/seeds/004-ovhcloud-demo-flavors.yaml',
];
/**
 * Left out: seed 004's pool names every flavor of a table, some not sold in EU-WEST-PAR: admitted or refused
 * depending on whether the service has read the region's flavors from the cloud yet, by design.
 */
const leftOut = new Set(['NodePool/s004-seed-004-flavors']);
/** Objects the webhooks or the API server refuse on purpose (test/fixtures/seeds/README.md says why). */
const refused = ['NodePool/s001-general-purpose', 'NodePool/s001-production-pool', 'OutscaleNodeClass/s003-default'];

let env: DemoEnvironment;
let dir: string;
let kubeconfig: string;

function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      ensureRealBinaries().kubectl,
      ['--kubeconfig', kubeconfig, ...args],
      { encoding: 'utf8', timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** The file's tag: `ex-ovhcloud` for manifests/examples/ovhcloud, `s001` for seed 001 (`s001r` for its RBX-A file). */
function tagOf(file: string): string {
  const example = /examples\/([a-z]+)\//.exec(file);
  if (example) return `ex-${example[1]}`;
  const seed = /seeds\/(\d{3})-(rbx)?/.exec(file) ?? [];
  return `s${seed[1]}${seed[2] ? 'r' : ''}`;
}

/** The NodePools and NodeClasses of a file, names prefixed with the file's tag (references too). */
function objectsOf(file: string): Json[] {
  const tag = tagOf(file);
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Json | null);
  return docs
    .filter((d): d is Json => d !== null && kinds.has(d.kind))
    .map((d) => {
      const object = structuredClone(d);
      object.metadata.name = `${tag}-${object.metadata.name}`;
      const ref = (object.spec?.template as { spec?: { nodeClassRef?: { name: string } } } | undefined)?.spec?.nodeClassRef;
      if (ref) ref.name = `${tag}-${ref.name}`;
      return object;
    })
    .filter((o) => !leftOut.has(`${o.kind}/${o.metadata.name}`));
}

const crdSchemas = new Map<string, Record<string, unknown>>();
function loadCrdSchemas(): void {
  for (const file of [
    'karpenter.sh_nodepools.yaml',
    'karpenter.ovhcloud.sh_ovhnodeclasses.yaml',
    'karpenter.scaleway.sh_scalewaynodeclasses.yaml',
    'karpenter.outscale.sh_outscalenodeclasses.yaml',
  ]) {
    const crd = parseAllDocuments(readFileSync(join('manifests/crds', file), 'utf8'))[0]?.toJS() as {
      spec: { names: { kind: string }; group: string; versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
    };
    for (const version of crd.spec.versions)
      crdSchemas.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, version.schema.openAPIV3Schema);
  }
}

/** The object as kube-apiserver stores it with no webhook at all: the manifest plus the CRD's schema defaults. */
function schemaDefaulted(object: Json): Json {
  const copy = structuredClone(object);
  applySchemaDefaults(copy, crdSchemas.get(`${String(object.apiVersion)}/${object.kind}`));
  return copy;
}

const refusedSeen: string[] = [];
const refusals: string[] = [];
let applied: Json[] = [];
/** The files every admitted object was applied from: NodeClasses first (NodePools name them). */
let files: string[] = [];

const withoutWarnings = (stderr: string): string => stderr.replace(/^Warning: .*\n/gm, '');

beforeAll(async () => {
  loadCrdSchemas();
  env = await startDemoEnvironment({
    clouds: ['ovhcloud', 'scaleway', 'outscale'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
  kubeconfig = env.kubeconfigPath ?? '';
  dir = mkdtempSync(join(tmpdir(), 'gitops-apply-'));
  const all = sources.flatMap((file) => objectsOf(file));
  const key = (o: Json): string => `${o.kind}/${o.metadata.name}`;
  // The ones refused on purpose, one apply each: each must be refused on its own.
  for (const object of all.filter((o) => refused.includes(key(o)))) {
    const path = join(dir, `refused-${object.kind}-${object.metadata.name}.yaml`);
    writeFileSync(path, stringify(object));
    const run = await kubectl('apply', '--server-side', '-f', path);
    if (run.code !== 0) {
      refusedSeen.push(key(object));
      refusals.push(`${key(object)}: ${run.stderr}`);
    }
  }
  applied = all.filter((o) => !refused.includes(key(o)));
  const classes = applied.filter((o) => o.kind !== 'NodePool');
  const pools = applied.filter((o) => o.kind === 'NodePool');
  files = [join(dir, 'nodeclasses.yaml'), join(dir, 'nodepools.yaml')];
  writeFileSync(files[0] ?? '', classes.map((o) => stringify(o)).join('---\n'));
  writeFileSync(files[1] ?? '', pools.map((o) => stringify(o)).join('---\n'));
  // Twice, as a GitOps tool syncs: kubectl reports every refused document and applies the others.
  for (const round of ['first', 'second'])
    for (const path of files) {
      const run = await kubectl('apply', '--server-side', '-f', path);
      expect({ round, path, code: run.code, stderr: withoutWarnings(run.stderr) }).toEqual({ round, path, code: 0, stderr: '' });
    }
}, 240_000);

afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('server-side apply of every example NodePool and NodeClass, twice, with the webhooks running', () => {
  it('refuses exactly the ones refused on purpose, each with its reason', () => {
    expect(refusedSeen.sort(), refusals.join('\n')).toEqual([...refused].sort());
    expect(applied).toHaveLength(sources.flatMap(objectsOf).length - refused.length);
  });

  it('`kubectl diff --server-side` is empty for every object', async () => {
    const diff = await kubectl('diff', '--server-side', ...files.flatMap((f) => ['-f', f]));
    // Admission warnings go to stderr as on a real cluster; anything else there is a failure.
    expect({ code: diff.code, diff: diff.stdout, stderr: withoutWarnings(diff.stderr) }).toEqual({ code: 0, diff: '', stderr: '' });
  }, 120_000);

  it('stores exactly the manifest plus the CRD schema defaults: nothing written into spec by the service', async () => {
    const kindsListed = 'nodepools,ovhnodeclasses,scalewaynodeclasses,outscalenodeclasses';
    const live = JSON.parse((await kubectl('get', kindsListed, '-o', 'json')).stdout) as { items: Json[] };
    const stored = new Map(live.items.map((o) => [`${o.kind}/${o.metadata.name}`, o.spec]));
    const differences: string[] = [];
    for (const object of applied) {
      const spec = stored.get(`${object.kind}/${object.metadata.name}`);
      const expected = schemaDefaulted(object).spec;
      if (!isDeepStrictEqual(spec, expected))
        differences.push(
          `${object.kind}/${object.metadata.name}: stored ${JSON.stringify(spec)}\n  Git+schema ${JSON.stringify(expected)}`,
        );
    }
    expect(differences).toEqual([]);
  }, 120_000);

  it('provisions with the defaults read at run time: the NodeClaim carries the amd64 and on-demand the stored pool lacks', async () => {
    const pool = 'ex-ovhcloud-default';
    const stored = JSON.parse((await kubectl('get', 'nodepool', pool, '-o', 'json')).stdout) as Json;
    const keys = (reqs: { key: string }[]) => reqs.map((r) => r.key);
    const storedReqs = (stored.spec?.template as { spec: { requirements: { key: string }[] } }).spec.requirements;
    expect(keys(storedReqs)).not.toContain('kubernetes.io/arch');
    const podPath = join(dir, 'pod.yaml');
    writeFileSync(
      podPath,
      stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'read-defaults', namespace: 'default' },
        spec: {
          nodeSelector: { 'karpenter.sh/nodepool': pool },
          containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
        },
      }),
    );
    expect((await kubectl('apply', '-f', podPath)).code).toBe(0);
    const deadline = Date.now() + 90_000;
    let requirements: { key: string; operator: string; values?: string[] }[] | undefined;
    while (!requirements && Date.now() < deadline) {
      const claims = JSON.parse((await kubectl('get', 'nodeclaims', '-l', `karpenter.sh/nodepool=${pool}`, '-o', 'json')).stdout) as {
        items: { spec: { requirements: { key: string; operator: string; values?: string[] }[] } }[];
      };
      requirements = claims.items[0]?.spec.requirements;
      if (!requirements) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(requirements).toContainEqual({ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] });
    expect(requirements).toContainEqual(expect.objectContaining({ key: 'karpenter.sh/capacity-type', values: ['on-demand'] }));
  }, 120_000);
});
