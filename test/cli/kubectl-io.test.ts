/**
 * The command line as kubectl users drive it, through `main` (no process): `-f -` with kubectl's
 * `get -o json` output, Lists, output formats by any case, `-o yaml` read back by `validate`, unknown flags
 * and missing files answered in one line with exit 2, `--version`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { type CommandTable, main } from '../../src/cli/main.js';
import { VERSION } from '../../src/cli/version.js';
import { testbedCommands } from '../../src/testbed/commands.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], stdin?: string, env: Record<string, string> = {}, commands?: CommandTable): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (t: string) => (stdout += t),
    stderr: (t: string) => (stderr += t),
    env,
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  };
  const code = await main(argv, io, commands);
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'kubectl-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pod as `kubectl get pods -A -o json` prints it: server fields, status, a phase. */
function kubectlPod(name: string, phase: string, nodeName?: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      resourceVersion: '4711',
      creationTimestamp: '2026-11-26T04:00:00Z',
      labels: { app: 'shop' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'shop-5d8f', uid: 'rs', controller: true }],
    },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: 'app', image: 'shop:1', resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
    },
    status: {
      phase,
      qosClass: 'Burstable',
      ...(phase === 'Pending' ? { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } : {}),
    },
  };
}

const kubectlList = JSON.stringify(
  {
    apiVersion: 'v1',
    kind: 'List',
    metadata: { resourceVersion: '' },
    items: [
      kubectlPod('shop-a', 'Pending'),
      kubectlPod('shop-b', 'Pending'),
      kubectlPod('shop-c', 'Running', 'worker-1'),
      kubectlPod('batch-done', 'Succeeded', 'worker-1'),
    ],
  },
  null,
  4,
);

describe('plan -f - (standard input)', () => {
  it('plans the pending pods of `kubectl get pods -A -o json` piped in, next to NodePools from files', async () => {
    const { code, stdout, stderr } = await run(['plan', '-f', '-', '-f', 'manifests/examples/ovhcloud', '-o', 'json'], kubectlList);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as { nodeClaims: { pods: string[] }[]; unschedulable: unknown[] };
    expect(plan.nodeClaims.flatMap((c) => c.pods).sort()).toEqual(['shop/shop-a', 'shop/shop-b']);
    expect(plan.unschedulable).toEqual([]);
  });

  it('reads YAML from standard input as well', async () => {
    const yaml =
      'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: 250m}}}]\n';
    const { code, stdout } = await run(['plan', '-f', 'manifests/examples/ovhcloud', '-f', '-', '-o', 'JSON'], yaml);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).nodeClaims[0].pods).toEqual(['default/web']);
  });

  it('names standard input in per-object errors', async () => {
    const { code, stderr } = await run(
      ['plan', '-f', 'manifests/examples/ovhcloud', '-f', '-', '-o', 'json'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n',
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/^error: stdin#1: kind "ConfigMap" is not planned/);
  });

  it('refuses a second -f - in one line', async () => {
    const { code, stderr } = await run(['validate', '-f', '-', '-f', '-'], '');
    expect(code).toBe(2);
    expect(stderr).toBe('error: validate: -f - (standard input) can be given once\n');
  });
});

describe('validate: JSON Lists and -o yaml', () => {
  const nodeClass = {
    apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
    kind: 'OVHNodeClass',
    metadata: { name: 'default' },
    spec: {
      serviceName: '0123456789abcdef0123456789abcdef',
      kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03',
      region: 'GRA11',
      credentialsSecretRef: { name: 'ovh', namespace: 'karpenter' },
    },
  };
  const nodePool = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'general' },
    spec: {
      template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
    },
  };
  const listFile = join(dir, 'list.json');
  writeFileSync(listFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [nodeClass, nodePool] }));

  it('admits the members of a JSON List file', async () => {
    const { code, stdout } = await run(['validate', '-f', listFile]);
    expect(stdout).toContain('OVHNodeClass/default: admitted');
    expect(stdout).toContain('NodePool/general: admitted');
    expect(code).toBe(0);
  });

  it('prints with -o yaml exactly the data of -o json', async () => {
    const json = await run(['validate', '-f', listFile, '-o', 'json']);
    const yaml = await run(['validate', '-f', listFile, '-o', 'YAML']);
    expect(yaml.code).toBe(json.code);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it('plan -o yaml carries exactly the data of plan -o json', async () => {
    const argv = ['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml'];
    const yaml = await run([...argv, '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse((await run([...argv, '-o', 'json'])).stdout));
  });

  it('gives the same verdicts to the List piped in as YAML (kubectl get -o yaml) as to the JSON file', async () => {
    const asYaml = stringifyYaml({ apiVersion: 'v1', kind: 'List', items: [nodeClass, nodePool] });
    const fromYaml = await run(['validate', '-f', '-', '-o', 'yaml'], asYaml);
    expect(parseYaml(fromYaml.stdout)).toEqual(parseYaml((await run(['validate', '-f', listFile, '-o', 'yaml'])).stdout));
    const names = await run(['validate', '-f', '-', '-o', 'name'], asYaml);
    expect(names.stdout).toBe('ovhnodeclass.karpenter.ovhcloud.sh/default\nnodepool.karpenter.sh/general\n');
    expect(names.code).toBe(0);
  });
});

describe("kubectl's answers to usage errors: one line, the fix, exit 2", () => {
  it.each([
    [['plan', '-f', 'x.yaml', '--bogus'], "error: unknown flag: --bogus; see 'karpenter-eu plan --help'\n"],
    [['validate', '--bogus'], "error: unknown flag: --bogus; see 'karpenter-eu validate --help'\n"],
    [['catalog', '--cloud', 'ovhcloud', '-x'], "error: unknown flag: -x; see 'karpenter-eu catalog --help'\n"],
    [['plan', '-f'], "error: flag needs an argument: --filename; see 'karpenter-eu plan --help'\n"],
    [
      ['plan', '-f', 'manifests/examples/ovhcloud', '-o', 'xml'],
      'error: unknown output format "xml" for -o/--output of plan; accepted: table, wide, json, yaml\n',
    ],
    [
      ['plan', '-f', join(dir, 'missing.yaml')],
      `error: the path "${join(dir, 'missing.yaml')}" does not exist; pass a file, a directory or - for standard input\n`,
    ],
    [
      ['validate', '-f', 'manifests/examples', '-f', join(dir, 'nope')],
      `error: the path "${join(dir, 'nope')}" does not exist; pass a file, a directory or - for standard input\n`,
    ],
    [
      ['--bogus'],
      "error: unknown flag: --bogus; accepted: catalog, validate, convert, plan, run, version, --version; see 'karpenter-eu --help'\n",
    ],
    [
      ['constructor'],
      'error: unknown command "constructor"; accepted: catalog, validate, convert, plan, run, version, --version; see \'karpenter-eu --help\'\n',
    ],
    [
      ['demo'],
      'error: unknown command "demo": the demo runs on the test bed, which this build does not ship; from a checkout: make demo; ' +
        "accepted: catalog, validate, convert, plan, run, version, --version; see 'karpenter-eu --help'\n",
    ],
  ])('%j', async (argv, expected) => {
    const { code, stdout, stderr } = await run(argv);
    expect(stderr).toBe(expected);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});

describe('output formats', () => {
  it('accepts -o in any case on every command', async () => {
    for (const argv of [
      ['catalog', '--cloud', 'OVHcloud', '--region', 'GRA11', '-o', 'Json'],
      ['version', '-o', 'JSON'],
    ]) {
      const { code, stdout } = await run(argv);
      expect(code).toBe(0);
      expect(() => JSON.parse(stdout)).not.toThrow();
    }
  });

  it('catalog -o name prints kubectl-style names, one per line, once each', async () => {
    const { code, stdout } = await run(['catalog', '--cloud', 'scaleway', '-o', 'name']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.every((l) => /^instancetype\/[A-Za-z0-9-]+$/.test(l))).toBe(true);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('catalog -o wide adds the labels column; plan -o wide the capacity type and allocatable', async () => {
    expect((await run(['catalog', '--cloud', 'ovhcloud', '--region', 'GRA11', '-o', 'wide'])).stdout).toMatch(/ZONES\s+LABELS\n/);
    const plan = await run(['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml', '-o', 'wide']);
    expect(plan.stdout).toMatch(/ZONE\s+CAPACITY-TYPE\s+ALLOC-CPU\s+ALLOC-MEMORY\s+EUR\/HOUR\s+PODS/);
    expect(plan.stdout).toMatch(/b3-8\s+eu-west-par-[abc]\s+on-demand\s+\S+\s+\S+Mi\s+0\.0508/);
  });
});

describe('version', () => {
  it.each([[['--version']], [['version']]])('%j prints the package version', async (argv) => {
    const { code, stdout } = await run(argv);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^karpenter-eu ${VERSION.replace(/\./g, '\\.')} \\(node v\\d+`));
  });

  it('-o json carries the version and the runtime', async () => {
    expect(JSON.parse((await run(['version', '-o', 'json'])).stdout)).toEqual({
      version: VERSION,
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
    });
  });
});

describe("run and the test bed CLI's demo answer unknown flags the same way", () => {
  it.each([['run'], ['demo']])('%s --bogus', async (command) => {
    const { code, stderr } = await run([command, '--bogus'], undefined, {}, testbedCommands);
    expect(stderr).toBe(`error: unknown flag: --bogus; see 'karpenter-eu ${command} --help'\n`);
    expect(code).toBe(2);
  });
});

describe('empty standard input', () => {
  it('plan -f - with nothing piped in says standard input had no object, exit 2', async () => {
    const { code, stderr } = await run(['plan', '-f', '-'], '');
    expect(stderr).toBe('error: plan: no object could be read from standard input\n');
    expect(code).toBe(2);
  });
});

describe('-o yaml for YAML 1.1 readers too', () => {
  it('quotes strings a YAML 1.1 reader would turn into dates or booleans (the sources dates)', async () => {
    const { stdout } = await run(['catalog', '--cloud', 'ovhcloud', '--region', 'GRA11', '-o', 'yaml']);
    const yaml11 = jsyaml.load(stdout) as { sources: { date: unknown }[]; retrieved: unknown };
    expect(typeof yaml11.retrieved).toBe('string');
    for (const source of yaml11.sources) expect(typeof source.date).toBe('string');
    expect(parseYaml(stdout)).toEqual(
      JSON.parse((await run(['catalog', '--cloud', 'ovhcloud', '--region', 'GRA11', '-o', 'json'])).stdout),
    );
  });
});
