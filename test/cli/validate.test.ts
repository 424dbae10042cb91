import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandIO } from '../../src/cli/errors.js';
import { parse as parseYaml } from 'yaml';
import { loadCatalog } from '../../src/catalog/index.js';
import { main } from '../../src/cli/main.js';

async function run(args: string[], env: CommandIO['env'] = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  return { code, stdout, stderr };
}

const nodeClass = `apiVersion: karpenter.ovhcloud.sh/v1alpha1
kind: OVHNodeClass
metadata: {name: default}
spec:
  serviceName: 0123456789abcdef0123456789abcdef
  kubeId: 6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03
  region: GRA7
`;
const pool = (name: string, zone: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${name}}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: topology.kubernetes.io/zone, operator: In, values: ["${zone}"]}
`;

describe('karpenter-eu validate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'validate-cli-'));
    writeFileSync(join(dir, 'good.yaml'), `${nodeClass}---\n${pool('good', 'gra7-a')}`);
    writeFileSync(join(dir, 'bad.yaml'), pool('bad', 'gra7-b'));
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [unclosed');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 when everything is admitted, using the other files for cross-object checks', async () => {
    const { code, stdout } = await run(['validate', '-f', join(dir, 'good.yaml')], { OVH_APPLICATION_KEY: 'ak' });
    expect(stdout).toContain('NodePool/good: admitted');
    expect(stdout).toContain(
      'warning: NodePool "good": no karpenter.sh/capacity-type requirement, karpenter.sh/capacity-type In [on-demand] applies',
    );
    expect(code).toBe(0);
  });

  it('exits 1 and prints [{kind, name, allowed, message, warnings, patch}] when one is denied', async () => {
    const { code, stdout } = await run(['validate', '-f', join(dir, 'good.yaml'), join(dir, 'bad.yaml'), '--output', 'json']);
    expect(code).toBe(1);
    const entries = JSON.parse(stdout) as {
      kind: string;
      name: string;
      allowed: boolean;
      message: string;
      warnings: string[];
      patch: unknown[];
    }[];
    expect(entries.map((e) => `${e.kind}/${e.name}:${e.allowed}`)).toEqual([
      'OVHNodeClass/default:false',
      'NodePool/good:true',
      'NodePool/bad:false',
    ]);
    expect(entries[0]?.message).toContain('spec.credentialsSecretRef: Required value');
    expect(entries[2]?.message).toContain('"gra7-b": not a zone of region GRA7');
    // Defaults are read, never written: the webhooks patch nothing, the warnings say what applies.
    expect(entries[1]?.patch).toEqual([]);
    expect(entries[1]?.warnings).toContain('NodePool "good": no kubernetes.io/arch requirement, kubernetes.io/arch In [amd64] applies');
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(['allowed', 'catalogs', 'kind', 'message', 'name', 'patch', 'warnings']);
  });

  it('admits the shipped examples directory', async () => {
    const { code, stdout } = await run(['validate', '-f', 'manifests/examples']);
    expect(stdout).toMatch(/\d+ admitted, 0 denied/);
    expect(code).toBe(0);
  });

  it.each([
    [['validate'], '-f PATH is required'],
    [['validate', '-f', 'x.yaml', '--output', 'text'], 'accepted: table, json, yaml, name'],
    [['validate', '--bogus'], "unknown flag: --bogus; see 'karpenter-eu validate --help'"],
  ])('exits 2 on usage errors: %j', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('exits 2 on a parse error, naming the file', async () => {
    const { code, stderr } = await run(['validate', '-f', join(dir, 'broken.yaml')]);
    expect(code).toBe(2);
    expect(stderr).toContain('broken.yaml');
  });
});

describe('karpenter-eu validate: which catalog answered', () => {
  let dir: string;
  const ovh = loadCatalog('ovhcloud').retrieved;
  const scw = loadCatalog('scaleway').retrieved;
  const scalewayClass = `apiVersion: karpenter.scaleway.sh/v1alpha1
kind: ScalewayNodeClass
metadata: {name: scw}
spec: {projectId: 11111111-2222-3333-4444-555555555555, zones: [fr-par-1]}
`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'validate-catalog-'));
    writeFileSync(join(dir, 'two-clouds.yaml'), `${nodeClass}---\n${pool('good', 'gra7-a')}---\n${scalewayClass}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('table: one line on stderr per bundled catalog used, with its date; stdout stays the verdicts', async () => {
    const { stdout, stderr } = await run(['validate', '-f', join(dir, 'two-clouds.yaml')], {
      OVH_APPLICATION_KEY: 'ak',
      SCW_SECRET_KEY: 'sk',
    });
    expect(stderr).toContain(`catalog: ovhcloud: the bundled catalog of ${ovh}`);
    expect(stderr).toContain(`catalog: scaleway: the bundled catalog of ${scw}`);
    expect(stdout).not.toContain('catalog');
  });

  it('-o name: the same lines on stderr', async () => {
    const { stdout, stderr } = await run(['validate', '-f', join(dir, 'two-clouds.yaml'), '-o', 'name'], {
      OVH_APPLICATION_KEY: 'ak',
      SCW_SECRET_KEY: 'sk',
    });
    expect(stderr).toContain(`catalog: ovhcloud: the bundled catalog of ${ovh}`);
    expect(
      stdout
        .split('\n')
        .filter(Boolean)
        .every((l) => l.includes('/')),
    ).toBe(true);
  });

  it('json: each entry names the catalogs that answered for it (its own cloud), nothing on stderr', async () => {
    const { stdout, stderr } = await run(['validate', '-f', join(dir, 'two-clouds.yaml'), '-o', 'json'], {
      OVH_APPLICATION_KEY: 'ak',
      SCW_SECRET_KEY: 'sk',
    });
    expect(stderr).toBe('');
    const entries = JSON.parse(stdout) as { kind: string; catalogs: unknown }[];
    expect(entries.map((e) => [e.kind, e.catalogs])).toEqual([
      ['OVHNodeClass', [{ cloud: 'ovhcloud', source: 'bundled', retrieved: ovh }]],
      ['NodePool', [{ cloud: 'ovhcloud', source: 'bundled', retrieved: ovh }]],
      ['ScalewayNodeClass', [{ cloud: 'scaleway', source: 'bundled', retrieved: scw }]],
    ]);
  });

  it('yaml: the date reads back as the same string, by YAML 1.2 and YAML 1.1 readers alike', async () => {
    const { stdout } = await run(['validate', '-f', join(dir, 'two-clouds.yaml'), '-o', 'yaml'], {
      OVH_APPLICATION_KEY: 'ak',
      SCW_SECRET_KEY: 'sk',
    });
    const json = JSON.parse(
      (await run(['validate', '-f', join(dir, 'two-clouds.yaml'), '-o', 'json'], { OVH_APPLICATION_KEY: 'ak', SCW_SECRET_KEY: 'sk' }))
        .stdout,
    ) as unknown;
    expect(parseYaml(stdout, { version: '1.2' })).toEqual(json);
    expect(parseYaml(stdout, { version: '1.1' })).toEqual(json);
    expect(stdout).toContain(`retrieved: "${ovh}"`);
  });
});
