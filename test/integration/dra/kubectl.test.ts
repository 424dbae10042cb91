/**
 * The real kubectl 1.31 against the simulated cluster's resource.k8s.io/v1: apply of a DeviceClass, a claim
 * template and a pod that uses it, then `get` with the columns kube-apiserver's printers give
 * (pkg/printers/internalversion/printers.go: ResourceSlice Node/Driver/Pool, ResourceClaim State) and `describe`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DraBed, scalewayMachine, startDraBed } from './dra-bed.js';

let bed: DraBed;
let dir: string;
let applied: { code: number; stdout: string; stderr: string };

const manifests = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.nvidia.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.nvidia.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-l4
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: device.attributes["gpu.nvidia.com"].productName == "NVIDIA L4"
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: one-l4
  containers:
  - name: app
    image: registry.k8s.io/pause:3.9
    resources:
      claims:
      - name: gpu
`;

/** The rows of a `kubectl get` table, split on runs of spaces. */
function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

beforeAll(async () => {
  bed = await startDraBed([scalewayMachine('gpu-1', 'L4-1-24G')]);
  dir = mkdtempSync(join(tmpdir(), 'dra-kubectl-'));
  writeFileSync(join(dir, 'gpu.yaml'), manifests);
  // Tests run in random order: all of them read what this apply made.
  applied = await bed.kubectl('apply', '-f', join(dir, 'gpu.yaml'));
  await bed.until(
    'the pod running',
    async () => (await bed.core.readNamespacedPod({ namespace: 'default', name: 'trainer' })).status?.phase === 'Running',
  );
}, 60_000);

afterAll(async () => {
  await bed.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kubectl on resource.k8s.io/v1', () => {
  it('applies a DeviceClass, a claim template and a pod using it, which then runs', async () => {
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual([
      'deviceclass.resource.k8s.io/gpu.nvidia.com created',
      'resourceclaimtemplate.resource.k8s.io/one-l4 created',
      'pod/trainer created',
    ]);
    await bed.until(
      'the pod running',
      async () => (await bed.core.readNamespacedPod({ namespace: 'default', name: 'trainer' })).status?.phase === 'Running',
    );
    const again = await bed.kubectl('apply', '-f', join(dir, 'gpu.yaml'));
    expect(again.code).toBe(0);
    // kubectl 1.31 knows no resource.k8s.io/v1 schema, so it sends JSON merge patches: the template's request list
    // differs from the live one by the server's defaults (allocationMode, count) and is sent again ("configured").
    expect(again.stdout).toContain('deviceclass.resource.k8s.io/gpu.nvidia.com unchanged');
    expect(again.stdout).toContain('pod/trainer unchanged');
  }, 60_000);

  it('prints resourceslices with their node, driver and pool', async () => {
    const got = await bed.kubectl('get', 'resourceslices');
    expect(got.code).toBe(0);
    const [header, row] = rows(got.stdout);
    expect(header).toEqual(['NAME', 'NODE', 'DRIVER', 'POOL', 'AGE']);
    expect(row?.slice(0, 4)).toEqual([expect.stringMatching(/^gpu-1-gpu\.nvidia\.com-[a-z0-9]{5}$/), 'gpu-1', 'gpu.nvidia.com', 'gpu-1']);
  });

  it('prints resourceclaims with their state, and the other kinds with name and age', async () => {
    const got = await bed.kubectl('get', 'resourceclaims');
    const claims = rows(got.stdout);
    expect(claims[0]).toEqual(['NAME', 'STATE', 'AGE']);
    expect(claims[1]?.slice(0, 2)).toEqual([expect.stringMatching(/^trainer-gpu-[a-z0-9]{5}$/), 'allocated,reserved']);
    expect(rows((await bed.kubectl('get', 'deviceclasses')).stdout).map((r) => r[0])).toEqual(['NAME', 'gpu.nvidia.com']);
    expect(rows((await bed.kubectl('get', 'resourceclaimtemplates')).stdout).map((r) => r[0])).toEqual(['NAME', 'one-l4']);
  });

  it('describes a claim with its allocation and the pod it is reserved for', async () => {
    const name = rows((await bed.kubectl('get', 'resourceclaims')).stdout)[1]?.[0] ?? '';
    const described = await bed.kubectl('describe', 'resourceclaim', name);
    expect(described.code).toBe(0);
    expect(described.stdout).toMatch(/Name:\s+trainer-gpu-/);
    expect(described.stdout).toMatch(/Device:\s+gpu-0/);
    expect(described.stdout).toMatch(/Reserved For:/);
  });
});
