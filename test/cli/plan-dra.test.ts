import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'plan-dra-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(...docs: string[]): string {
  const path = join(dir, `dra-${files++}.yaml`);
  writeFileSync(path, docs.join('\n---\n'));
  return path;
}

const deviceClass = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors:
    - cel: {expression: 'device.driver == "gpu.nvidia.com"'}`;

function template(name: string, request: string): string {
  return `apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: ${name}, namespace: default}
spec:
  spec:
    devices:
      requests:
        - name: gpu
          exactly:
            deviceClassName: gpu.nvidia.com
${request
  .split('\n')
  .map((l) => `            ${l}`)
  .join('\n')}`;
}

function claimPod(name: string, claim: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  resourceClaims: [{name: gpu, ${claim}}]
  containers:
    - name: cuda
      image: nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04
      resources:
        requests: {cpu: "2", memory: 8Gi}
        claims: [{name: gpu}]`;
}

interface Plan {
  nodeClaims: { instanceType: string; pods: string[] }[];
  unschedulable: { pod: string; reason: string }[];
}

async function plan(...extra: string[]): Promise<{ plan: Plan; stderr: string }> {
  const args = ['plan', '-f', 'manifests/examples/scaleway'];
  for (const f of extra) args.push('-f', f);
  const { code, stdout, stderr } = await run([...args, '-o', 'json']);
  expect(code).toBe(0);
  return { plan: JSON.parse(stdout) as Plan, stderr };
}

const memory40 = `selectors:\n  - cel: {expression: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0'}`;
const product = (name: string): string =>
  `selectors:\n  - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "${name}"'}`;

describe('plan -f with DRA resource claims (Scaleway GPU NodePool)', () => {
  it('reads DeviceClass and ResourceClaimTemplate, and plans a ≥ 40Gi claim on an L40S-1-48G, not an L4', async () => {
    const { plan: result, stderr } = await plan(
      file(deviceClass, template('big-gpu', memory40), claimPod('trainer', 'resourceClaimTemplateName: big-gpu')),
    );
    expect(stderr).not.toMatch(/error:/);
    expect(result.unschedulable).toEqual([]);
    expect(result.nodeClaims).toMatchObject([{ instanceType: 'L40S-1-48G', pods: ['default/trainer'] }]);
  });

  it('2 × L4 on one node: an L4-2-24G', async () => {
    const { plan: result } = await plan(
      file(deviceClass, template('two-l4', `count: 2\n${product('NVIDIA L4')}`), claimPod('pair', 'resourceClaimTemplateName: two-l4')),
    );
    expect(result.nodeClaims).toMatchObject([{ instanceType: 'L4-2-24G', pods: ['default/pair'] }]);
  });

  it('an L40S shared by two pods through one ResourceClaim: one L40S-1-48G for both', async () => {
    const claim = `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-l40s, namespace: default}
spec:
  devices:
    requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
            - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA L40S"'}`;
    const { plan: result } = await plan(
      file(deviceClass, claim, claimPod('a', 'resourceClaimName: shared-l40s'), claimPod('b', 'resourceClaimName: shared-l40s')),
    );
    expect(result.nodeClaims.map((c) => [c.instanceType, [...c.pods].sort()])).toEqual([['L40S-1-48G', ['default/a', 'default/b']]]);
  });

  it('a claim no flavor satisfies is reported as unschedulable and planned no node', async () => {
    const { plan: result } = await plan(
      file(deviceClass, template('b200', product('NVIDIA B200')), claimPod('blackwell', 'resourceClaimTemplateName: b200')),
    );
    expect(result.nodeClaims).toEqual([]);
    expect(result.unschedulable).toHaveLength(1);
    expect(result.unschedulable[0]?.reason).toContain("no instance type publishes devices that satisfy the pod's resource claims");
  });

  it('a selector that does not compile is reported for its object, naming the expression', async () => {
    const { plan: result, stderr } = await plan(
      file(
        deviceClass,
        template('broken', "selectors:\n  - cel: {expression: 'device.('}"),
        claimPod('p', 'resourceClaimTemplateName: broken'),
      ),
    );
    expect(result.nodeClaims).toEqual([]);
    expect(result.unschedulable[0]?.reason).toMatch(
      /ResourceClaimTemplate default\/broken\.devices\.requests\["gpu"\]\.exactly\.selectors\[0\]: selector "device\.\(" does not compile/,
    );
    expect(stderr).not.toMatch(/not planned/);
  });
});
