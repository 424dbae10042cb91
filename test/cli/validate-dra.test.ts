import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

interface Verdict {
  kind: string;
  name: string;
  allowed: boolean;
  message: string;
}

const dir = mkdtempSync(join(tmpdir(), 'validate-dra-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(yaml: string): Promise<{ code: number; verdicts: Verdict[] }> {
  const file = join(dir, `d-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  let stdout = '';
  const code = await main(['validate', '-f', file, '-o', 'json'], { stdout: (t) => (stdout += t), stderr: () => undefined, env: {} });
  return { code, verdicts: JSON.parse(stdout) as Verdict[] };
}

const deviceClass = (expression: string): string =>
  `apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\nspec:\n  selectors: [{cel: {expression: '${expression}'}}]`;

const template = (exactly: string): string =>
  `apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: gpu, namespace: default}\nspec:\n  spec:\n    devices:\n      requests: [{name: gpu, exactly: ${exactly}}]`;

describe('validate -f with DRA objects', () => {
  it('admits a DeviceClass and a ResourceClaimTemplate whose selectors compile', async () => {
    const { code, verdicts } = await validate(
      `${deviceClass('device.driver == "gpu.nvidia.com"')}\n---\n${template(`{deviceClassName: gpu.nvidia.com, count: 2, selectors: [{cel: {expression: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0'}}]}`)}`,
    );
    expect(code).toBe(0);
    expect(verdicts.map((v) => [v.kind, v.name, v.allowed])).toEqual([
      ['DeviceClass', 'gpu.nvidia.com', true],
      ['ResourceClaimTemplate', 'gpu', true],
    ]);
  });

  it('denies a selector that does not compile, a bad allocation mode and a count below 1, naming field and value', async () => {
    const { code, verdicts } = await validate(
      `${deviceClass('device.driver ==')}\n---\n${template('{deviceClassName: gpu.nvidia.com, allocationMode: Some, count: 0}')}`,
    );
    expect(code).toBe(1);
    expect(verdicts[0]).toMatchObject({ kind: 'DeviceClass', allowed: false });
    expect(verdicts[0]?.message).toMatch(/^spec\.selectors\[0\]: selector "device\.driver ==" does not compile/);
    expect(verdicts[1]).toMatchObject({
      kind: 'ResourceClaimTemplate',
      allowed: false,
      message: 'spec.spec.devices.requests["gpu"].exactly.allocationMode: "Some"; accepted: ExactCount, All',
    });
    const zero = await validate(template('{deviceClassName: gpu.nvidia.com, count: 0}'));
    expect(zero.verdicts[0]?.message).toBe('spec.spec.devices.requests["gpu"].exactly.count: 0; accepted: an integer of at least 1');
  });
});
