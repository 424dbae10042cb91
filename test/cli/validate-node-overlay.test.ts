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

const dir = mkdtempSync(join(tmpdir(), 'validate-overlay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(yaml: string): Promise<Verdict[]> {
  const file = join(dir, `o-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  let stdout = '';
  await main(['validate', '-f', 'manifests/examples/ovhcloud', '-f', file, '-o', 'json'], {
    stdout: (t) => (stdout += t),
    stderr: () => undefined,
    env: { OVH_APPLICATION_KEY: 'ak' },
  });
  return (JSON.parse(stdout) as Verdict[]).filter((v) => v.kind === 'NodeOverlay');
}

const overlay = (name: string, spec: string): string =>
  `apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: {name: ${name}}\nspec:\n${spec}`;

describe('validate -f NodeOverlay', () => {
  it('admits overlays of different weights on one family, and equal weights on different families', async () => {
    const verdicts = await validate(
      [
        overlay(
          'b3-dearer',
          '  requirements: [{key: karpenter-eu.io/instance-family, operator: In, values: [b3]}]\n  priceAdjustment: "+25%"',
        ),
        overlay(
          'b3-negotiated',
          '  weight: 5\n  requirements: [{key: karpenter-eu.io/instance-family, operator: In, values: [b3]}]\n  price: "0.04"',
        ),
        overlay(
          'c3-cheaper',
          '  requirements: [{key: karpenter-eu.io/instance-family, operator: In, values: [c3]}]\n  priceAdjustment: "-0.01"',
        ),
      ].join('\n---\n'),
    );
    expect(verdicts.map((v) => [v.name, v.allowed, v.message])).toEqual([
      ['b3-dearer', true, ''],
      ['b3-negotiated', true, ''],
      ['c3-cheaper', true, ''],
    ]);
  });

  it('refuses two overlays of equal weight pricing the same instance types, naming both, the field and the fix', async () => {
    const verdicts = await validate(
      [
        overlay(
          'b3-dearer',
          '  weight: 7\n  requirements: [{key: karpenter-eu.io/instance-family, operator: In, values: [b3]}]\n  priceAdjustment: "+25%"',
        ),
        overlay(
          'b3-8-price',
          '  weight: 7\n  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [b3-8]}]\n  price: "0.03"',
        ),
      ].join('\n---\n'),
    );
    const dearer = verdicts.find((v) => v.name === 'b3-dearer');
    expect(dearer?.allowed).toBe(false);
    expect(dearer?.message).toMatch(
      /^spec\.priceAdjustment: Forbidden: NodeOverlay (b3-dearer|b3-8-price) conflicts with NodeOverlay (b3-dearer|b3-8-price): at the same weight \(7\) they both set the price of b3-8 in eu-west-par-[abc] \(spec\.price\/spec\.priceAdjustment\); give one of them a higher spec\.weight to make it win, or narrow spec\.requirements so they select different instance types$/,
    );
    expect(verdicts.find((v) => v.name === 'b3-8-price')?.message).toMatch(/^spec\.price: Forbidden: /);
  });

  it('refuses a priceAdjustment it cannot read, price with priceAdjustment, and standard resources in capacity', async () => {
    const verdicts = await validate(
      [
        overlay('typo', '  requirements: []\n  priceAdjustment: "25%"'),
        overlay('both', '  requirements: []\n  price: "0.1"\n  priceAdjustment: "+1%"'),
        overlay('cpu', '  requirements: []\n  capacity: {cpu: "4", example.com/fpga: 1}'),
      ].join('\n---\n'),
    );
    const message = (name: string) => verdicts.find((v) => v.name === name)?.message;
    expect(message('typo')).toBe(
      "spec.priceAdjustment: Invalid value: '25%' is not a price adjustment: write a signed amount in EUR per hour ('+0.05', '-0.5'), an increase in percent ('+25%') or a decrease of at most 100 percent ('-10%', '-100%')",
    );
    expect(message('both')).toContain("cannot set both 'price' and 'priceAdjustment'");
    expect(message('cpu')).toContain(
      'invalid resource restricted: cpu cannot be set by an overlay; only extended resources (e.g. nvidia.com/gpu)',
    );
    expect(verdicts.every((v) => !v.allowed)).toBe(true);
  });
});
