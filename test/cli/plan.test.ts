import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadCatalog } from '../../src/catalog/index.js';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'plan-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bad = join(dir, 'bad.yaml');
writeFileSync(
  bad,
  [
    'apiVersion: v1\nkind: Pod\nmetadata: {name: broken}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: lots}}}]',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: empty}\nspec: {replicas: 2}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}',
    'apiVersion: v1\nkind: Pod\nmetadata: {name: fine}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: 500m, memory: 512Mi}}}]',
  ].join('\n---\n'),
);
const onlyPods = join(dir, 'pods.yaml');
writeFileSync(onlyPods, 'apiVersion: v1\nkind: Pod\nmetadata: {name: lonely}\nspec:\n  containers: [{name: c, image: i}]\n');

describe('karpenter-eu plan', () => {
  it('prints the DESIGN.md §3 JSON for the OVHcloud examples', async () => {
    const { code, stdout, stderr } = await run([
      'plan',
      '-f',
      'manifests/examples/ovhcloud',
      '-f',
      'manifests/examples/workloads/inflate.yaml',
      '--output',
      'json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.nodeClaims).toEqual([
      {
        nodePool: 'default',
        nodeClass: { kind: 'OVHNodeClass', name: 'default' },
        instanceType: 'b3-8',
        zone: expect.stringMatching(/^eu-west-par-[abc]$/),
        capacityType: 'on-demand',
        pricePerHour: 0.0508,
        allocatable: expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String), pods: '110' }),
        pods: ['default/inflate-0', 'default/inflate-1', 'default/inflate-2'],
      },
    ]);
    expect(plan).toMatchObject({ existingNodes: [], unschedulable: [], totalPricePerHour: 0.0508 });
  });

  it('prints a table with totals per hour and per month', async () => {
    const { code, stdout } = await run(['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/NODECLAIM\s+NODEPOOL\s+INSTANCE-TYPE\s+ZONE\s+EUR\/HOUR\s+PODS/);
    expect(stdout).toMatch(/b3-8\s+eu-west-par-[abc]\s+0\.0508/);
    expect(stdout).toContain('0.0508 EUR/hour, 37.08 EUR/month (730 h)');
  });

  it('reports bad objects one line each and plans the rest', async () => {
    const { code, stdout, stderr } = await run(['plan', '-f', 'manifests/examples/ovhcloud', '-f', bad, '-o', 'json']);
    expect(code).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/bad\.yaml#1: compiling pod default\/broken: .*cpu/);
    expect(lines[1]).toMatch(/bad\.yaml#2: expanding Deployment empty: spec.template.spec.containers is missing/);
    expect(lines[2]).toMatch(/bad\.yaml#3: kind "ConfigMap" is not planned/);
    expect(JSON.parse(stdout).nodeClaims[0].pods).toEqual(['default/fine']);
  });

  it.each([
    [['plan'], /-f PATH is required/],
    [['plan', '-f', 'x', '--output', 'name'], /unknown output format "name" for -o\/--output of plan; accepted: table, wide, json, yaml/],
    [['plan', '-f', join(dir, 'missing.yaml')], /.+/],
  ])('exits 2 on usage or unreadable input: %j', async (argv, message) => {
    const { code, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 when nothing can host pods (no NodePool, no Node)', async () => {
    const { code, stderr } = await run(['plan', '-f', onlyPods]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no usable NodePool/);
  });
});

describe('karpenter-eu plan: which catalog answered', () => {
  const args = ['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml'];
  const retrieved = loadCatalog('ovhcloud').retrieved;

  it('table and wide: one line on stderr naming the bundled catalog and its date', async () => {
    for (const output of ['table', 'wide']) {
      const { stdout, stderr } = await run([...args, '-o', output]);
      expect(stderr).toBe(
        `catalog: ovhcloud: the bundled catalog of ${retrieved} (offline; the running service reads the clouds' live catalogs)\n`,
      );
      expect(stdout).not.toContain('catalog');
    }
  });

  it('json and yaml: a catalogs field beside the plan, the date a string either way', async () => {
    const json = JSON.parse((await run([...args, '-o', 'json'])).stdout) as { catalogs: unknown };
    expect(json.catalogs).toEqual([{ cloud: 'ovhcloud', source: 'bundled', retrieved }]);
    const { stdout } = await run([...args, '-o', 'yaml']);
    expect(parseYaml(stdout, { version: '1.1' })).toEqual(json);
    expect(parseYaml(stdout, { version: '1.2' })).toEqual(json);
  });
});
