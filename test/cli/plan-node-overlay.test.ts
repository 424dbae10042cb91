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

const dir = mkdtempSync(join(tmpdir(), 'plan-overlay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function overlays(...docs: string[]): string {
  const file = join(dir, `overlays-${files++}.yaml`);
  writeFileSync(file, docs.join('\n---\n'));
  return file;
}

function overlay(name: string, selector: [key: string, value: string], field: 'priceAdjustment' | 'price', value: string): string {
  return [
    'apiVersion: karpenter.sh/v1alpha1',
    'kind: NodeOverlay',
    `metadata: {name: ${name}}`,
    'spec:',
    `  requirements: [{key: ${selector[0]}, operator: In, values: [${selector[1]}]}]`,
    `  ${field}: "${value}"`,
  ].join('\n');
}

const familyOverlay = (name: string, family: string, field: 'priceAdjustment' | 'price', value: string): string =>
  overlay(name, ['karpenter-eu.io/instance-family', family], field, value);
const typeOverlay = (name: string, type: string, field: 'priceAdjustment' | 'price', value: string): string =>
  overlay(name, ['node.kubernetes.io/instance-type', type], field, value);

interface PlannedClaim {
  instanceType: string;
  pricePerHour: number;
}

/** The OVHcloud example NodePool planning three inflate pods (b3-8 at 0.0508 EUR/h without overlays). */
async function planned(...overlayFiles: string[]): Promise<PlannedClaim> {
  const args = ['plan', '-f', 'manifests/examples/ovhcloud', '-f', 'manifests/examples/workloads/inflate.yaml'];
  for (const f of overlayFiles) args.push('-f', f);
  const { code, stdout, stderr } = await run([...args, '-o', 'json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const claims = JSON.parse(stdout).nodeClaims as PlannedClaim[];
  expect(claims).toHaveLength(1);
  return claims[0] as PlannedClaim;
}

describe('plan -f with NodeOverlays', () => {
  it('moves to the next family exactly when the adjusted price of the cheapest one crosses it', async () => {
    const base = await planned();
    expect(base).toMatchObject({ instanceType: 'b3-8', pricePerHour: 0.0508 });
    // The next family's choice at its own price: b3 made far dearer.
    const next = await planned(overlays(familyOverlay('b3-dearer', 'b3', 'priceAdjustment', '+1000%')));
    expect(next.instanceType).not.toMatch(/^b3-/);
    const crossing = (next.pricePerHour / base.pricePerHour - 1) * 100;
    const below = (Math.floor(crossing * 10) / 10).toFixed(1);
    const above = (Math.ceil(crossing * 10) / 10).toFixed(1);
    expect(Number(below)).toBeLessThan(crossing);
    expect(Number(above)).toBeGreaterThan(crossing);

    const justBelow = await planned(overlays(familyOverlay('b3-dearer', 'b3', 'priceAdjustment', `+${below}%`)));
    expect(justBelow.instanceType).toBe('b3-8');
    expect(justBelow.pricePerHour).toBeCloseTo(0.0508 * (1 + Number(below) / 100), 9);
    const justAbove = await planned(overlays(familyOverlay('b3-dearer', 'b3', 'priceAdjustment', `+${above}%`)));
    expect(justAbove).toEqual(next);
  });

  it('+25% on b3 moves the plan to c3 when c3-8 costs just under 1.25 × b3-8, and not when it costs just over', async () => {
    const plus25 = familyOverlay('b3-plus-25', 'b3', 'priceAdjustment', '+25%');
    // 0.0508 × 1.25 = 0.0635 EUR/h: c3-8 repriced either side of it.
    const under = await planned(overlays(plus25, typeOverlay('c3-8-negotiated', 'c3-8', 'price', '0.0634')));
    expect(under).toMatchObject({ instanceType: 'c3-8', pricePerHour: 0.0634 });
    const over = await planned(overlays(plus25, typeOverlay('c3-8-negotiated', 'c3-8', 'price', '0.0636')));
    expect(over.instanceType).toBe('b3-8');
    expect(over.pricePerHour).toBeCloseTo(0.0635, 9);
  });

  it('leaves out an overlay whose priceAdjustment cannot be read, saying what is accepted', async () => {
    const bad = overlays(familyOverlay('b3-typo', 'b3', 'priceAdjustment', '25%'));
    const { code, stdout, stderr } = await run([
      'plan',
      '-f',
      'manifests/examples/ovhcloud',
      '-f',
      'manifests/examples/workloads/inflate.yaml',
      '-f',
      bad,
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain("spec.priceAdjustment: Invalid value: '25%' is not a price adjustment");
    expect(stderr).toContain("'+25%'");
    expect(JSON.parse(stdout).nodeClaims[0]).toMatchObject({ instanceType: 'b3-8', pricePerHour: 0.0508 });
  });
});
