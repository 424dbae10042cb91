import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

// The users' own manifests (test/fixtures/seeds/README.md): the outcome each seed describes, through the CLI.
const fixtures = 'test/fixtures/seeds';
const dir = mkdtempSync(join(tmpdir(), 'seeds-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr };
}

interface Entry {
  kind: string;
  name: string;
  allowed: boolean;
  message: string;
  warnings: string[];
}

async function validate(file: string): Promise<Map<string, Entry>> {
  const { stdout } = await run(['validate', '-f', join(fixtures, file), '-o', 'json']);
  return new Map((JSON.parse(stdout) as Entry[]).map((e) => [`${e.kind}/${e.name}`, e]));
}

interface PlanJson {
  nodeClaims: { nodePool: string; instanceType: string; pods: string[] }[];
  unschedulable: { pod: string; reason: string }[];
}

async function plan(...files: string[]): Promise<{ plan: PlanJson; stderr: string }> {
  const { code, stdout, stderr } = await run(['plan', ...files.flatMap((f) => ['-f', f]), '-o', 'json']);
  expect(code, stderr).toBe(0);
  return { plan: JSON.parse(stdout) as PlanJson, stderr };
}

/** A copy of a fixture with the seed's own `kubectl scale` applied, plus extra documents. */
function scaled(file: string, replicas: number, ...extra: string[]): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [readFileSync(join(fixtures, file), 'utf8').replace(/replicas: 0/, `replicas: ${replicas}`), ...extra].join('\n---\n'),
  );
  return path;
}

const gpuPod = `apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  tolerations: [{key: nvidia.com/gpu, operator: Exists}]
  containers: [{name: c, image: i, resources: {requests: {nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}]`;

describe('seed 000: the Scaleway GPU controller', () => {
  it('denies the v1alpha5 Provisioner, naming convert', async () => {
    const entries = await validate('000-scaleway-gpu-controller.yaml');
    expect(entries.get('Provisioner/scaleway-gpu')).toMatchObject({ allowed: false });
    expect(entries.get('Provisioner/scaleway-gpu')?.message).toContain('karpenter-eu convert -f FILE');
  });

  it('refuses the pod selecting karpenter.sh/instance-type: l4, with the selector and toleration to write instead', async () => {
    const pod = (await validate('000-scaleway-gpu-controller.yaml')).get('Pod/gpu-test');
    expect(pod?.allowed).toBe(false);
    expect(pod?.message).toContain('instead of `karpenter.sh/instance-type: l4` write `karpenter-eu.io/instance-gpu-name: l4`');
    expect(pod?.message).toContain('`tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]`');
  });
});

describe('seed 001: the OVHcloud MKS guide', () => {
  it('admits the class, dev-pool and gpu-pool; denies the GRA7 multi-zone pools naming the zones and their index', async () => {
    const entries = await validate('001-ovhcloud-mks-guide.yaml');
    for (const key of ['OVHNodeClass/default', 'NodePool/dev-pool', 'NodePool/gpu-pool'])
      expect(entries.get(key), key).toMatchObject({ allowed: true, message: '' });
    expect(entries.get('NodePool/general-purpose')?.message).toContain(
      'spec.template.spec.requirements[3].values[1]: Unsupported value: "gra7-b": not a zone of region GRA7',
    );
    expect(entries.get('NodePool/production-pool')?.message).toContain(
      'spec.template.spec.requirements[1].values[2]: Unsupported value: "gra7-c"',
    );
  });

  it('admits RBX-A, a region the guide lists', async () => {
    expect((await validate('001-rbx-a.yaml')).get('OVHNodeClass/roubaix')).toMatchObject({ allowed: true, message: '', warnings: [] });
  });

  it('plans inflate scaled to 10 on dev-pool and a GPU pod on gpu-pool (t2), leaving the denied pools out', async () => {
    const { plan: result, stderr } = await plan(scaled('001-ovhcloud-mks-guide.yaml', 10, gpuPod));
    expect(result.unschedulable).toEqual([]);
    const byPool = (pool: string) => result.nodeClaims.filter((c) => c.nodePool === pool);
    expect(byPool('dev-pool').flatMap((c) => c.pods)).toHaveLength(10);
    for (const claim of byPool('dev-pool')) expect(['b2-7', 'b2-15']).toContain(claim.instanceType);
    expect(byPool('gpu-pool')).toEqual([expect.objectContaining({ instanceType: 't2-45', pods: ['default/trainer'] })]);
    expect(stderr).toMatch(/NodePool refused by admission, left out: .*"gra7-b"/);
  });
});

describe('seed 002: the existing OVHcloud provider README', () => {
  it('admits the quick start, warning that the NodePool has no limits and naming one', async () => {
    const entries = await validate('002-ovhcloud-provider-readme.yaml');
    expect(entries.get('OVHNodeClass/default')).toMatchObject({ allowed: true });
    const pool = entries.get('NodePool/default');
    expect(pool?.allowed).toBe(true);
    expect(pool?.warnings.join('\n')).toMatch(
      /spec.limits is not set.*suggested: limits: \{cpu: "80", memory: "\d+Gi"\} \(10 of its largest flavor, b3-32\)/,
    );
  });

  it('plans the five inflate pods on b3 flavors', async () => {
    const { plan: result } = await plan(join(fixtures, '002-ovhcloud-provider-readme.yaml'));
    expect(result.unschedulable).toEqual([]);
    expect(result.nodeClaims.flatMap((c) => c.pods)).toHaveLength(5);
    for (const claim of result.nodeClaims) expect(claim.instanceType).toMatch(/^b3-(8|16|32)$/);
  });
});

describe('seed 003: the Outscale provider how-to', () => {
  it('denies the class of the page placeholder group, naming the group this project serves', async () => {
    const entry = (await validate('003-outscale-provider-howto.yaml')).get('OutscaleNodeClass/default');
    expect(entry?.allowed).toBe(false);
    expect(entry?.message).toContain('"karpenter.outscale.com/v1alpha1/OutscaleNodeClass"');
    expect(entry?.message).toContain('karpenter.outscale.sh/v1alpha1/OutscaleNodeClass');
  });
});

describe('seed 004: the OVHcloud demo flavor table', () => {
  it('admits every flavor of the table (b3-512, c3-256, r3-1024 included); what the file does not place in EU-WEST-PAR is a warning', async () => {
    const pool = (await validate('004-ovhcloud-demo-flavors.yaml')).get('NodePool/seed-004-flavors');
    expect(pool).toMatchObject({ allowed: true, message: '' });
    for (const flavor of ['b3-512', 'c3-256', 'r3-1024']) expect(pool?.warnings.join('\n')).not.toContain(`]: "${flavor}": `);
    expect(pool?.warnings.join('\n')).toContain('"t1-45": flavor not offered in region EU-WEST-PAR');
  });
});
