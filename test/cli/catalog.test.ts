import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../src/cli/errors.js';
import { main } from '../../src/cli/main.js';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe('karpenter-eu catalog', () => {
  it.each(['ovhcloud', 'scaleway', 'outscale'])(
    '%s: shows public sources (https URL) with their dates, no internal notes',
    async (cloud) => {
      const json = JSON.parse((await run(['catalog', '--cloud', cloud, '-o', 'json'])).stdout) as {
        sources: { title: string; url: string; date: string }[];
      };
      expect(json.sources.length).toBeGreaterThan(0);
      for (const source of json.sources) {
        expect(Object.keys(source).sort()).toEqual(['date', 'title', 'url']);
        expect(source.url).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\//);
        expect(source.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(`${source.title} ${source.url}`).not.toMatch(/seed \d|clouds\.md|reference\/|§|\bS\d:/);
      }
      const table = (await run(['catalog', '--cloud', cloud])).stdout;
      expect(table).toContain(`Sources:\n  ${json.sources[0]?.date}  ${json.sources[0]?.title}\n              ${json.sources[0]?.url}\n`);
    },
  );

  it('prints JSON with capacity, allocatable, labels and price per zone', async () => {
    const { code, stdout, stderr } = await run(['catalog', '--cloud', 'ovhcloud', '--region', 'EU-WEST-PAR', '--output', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as {
      cloud: string;
      instanceTypes: Array<{
        name: string;
        capacity: Record<string, string>;
        allocatable: Record<string, string>;
        labels: Record<string, string>;
        offerings: Array<{ zone: string; pricePerHour: number }>;
      }>;
    };
    expect(out.cloud).toBe('ovhcloud');
    const b38 = out.instanceTypes.find((t) => t.name === 'b3-8')!;
    expect(b38.capacity).toMatchObject({ cpu: '2', pods: '110' });
    expect(b38.allocatable.cpu).toBe('1830m');
    expect(b38.labels['topology.kubernetes.io/region']).toBe('EU-WEST-PAR');
    expect(b38.offerings.map((o) => o.zone)).toEqual(['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c']);
    expect(b38.offerings[0]?.pricePerHour).toBe(0.0508);
  });

  it('prints a readable table by default', async () => {
    const { code, stdout } = await run(['catalog', '--cloud', 'scaleway', '--region', 'fr-par']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME\s+REGION\s+CPU\s+MEMORY\s+GPU/m);
    expect(stdout).toMatch(/^L4-1-24G\s+fr-par\s+8\s+.*1xl4.*0\.7500\s+fr-par-2$/m);
  });

  it('accepts monthly billing', async () => {
    const { code, stdout } = await run(['catalog', '--cloud', 'ovhcloud', '--region', 'GRA11', '--billing', 'monthly', '-o', 'json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { instanceTypes: Array<{ labels: Record<string, string> }> };
    expect(out.instanceTypes.every((t) => t.labels['karpenter-eu.io/billing'] === 'monthly')).toBe(true);
  });

  it('prints help with exit 0', async () => {
    const { code, stdout } = await run(['catalog', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--cloud/);
  });

  it.each([
    [['catalog', '--cloud', 'aws'], /unknown cloud "aws" for --cloud; accepted: ovhcloud, scaleway, outscale/],
    [['catalog'], /--cloud is required/],
    [
      ['catalog', '--cloud', 'ovhcloud', '--region', 'MARS1'],
      /unknown ovhcloud region "MARS1" for --region; accepted: EU-WEST-PAR, .*GRA11/,
    ],
    [
      ['catalog', '--cloud', 'outscale', '--output', 'xml'],
      /unknown output format "xml" for -o\/--output of catalog; accepted: table, wide, json, yaml, name/,
    ],
    [['catalog', '--cloud', 'outscale', '--billing', 'yearly'], /unknown billing "yearly"/],
    [['catalog', '--bogus'], /^error: unknown flag: --bogus; see 'karpenter-eu catalog --help'$/m],
  ])('%j exits 2 with one clear line, no stack trace', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
