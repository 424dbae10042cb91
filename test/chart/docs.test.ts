import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { savingsCounter } from '../../src/controllers/disruption/metrics.js';
import { garbageCollectionMetrics } from '../../src/controllers/nodeclaim/garbagecollection/metrics.js';
import { MetricReasons, createMetrics, registerProcessMetrics } from '../../src/metrics/registry.js';
import { repoRoot } from './chart-fixtures.js';

const read = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

describe('user documentation stays in step with the code', () => {
  it('docs/metrics.md lists every series the service can export, with its type and labels, and no other', async () => {
    const registry = new Registry();
    createMetrics(registry);
    registerProcessMetrics(registry);
    // Registered later by the controllers that own them; the page lists them all the same.
    garbageCollectionMetrics(registry);
    savingsCounter(registry);
    const labelsOf = (name: string): string => {
      const metric = registry.getSingleMetric(name) as unknown as { labelNames?: string[] };
      return (metric.labelNames ?? []).join(', ') || '—';
    };
    const registered = (await registry.getMetricsAsJSON()).map((m) => `${m.name} ${String(m.type)} ${labelsOf(m.name)}`);
    const page = read('docs/metrics.md');
    const documented = [...page.matchAll(/^\| `([a-z0-9_]+)` \| (counter|gauge|histogram|summary) \| ([^|]+) \|/gm)].map(
      (m) => `${m[1]} ${m[2]} ${(m[3] as string).trim()}`,
    );
    expect(documented.sort()).toEqual(registered.sort());
    for (const reason of Object.values(MetricReasons)) expect(page).toContain(`\`${reason}\``);
  });

  it('links only to files that exist', () => {
    const pages = [
      'README.md',
      'docs/architecture.md',
      'src/byte-path/README.md',
      'docs/install.md',
      'docs/troubleshooting.md',
      'docs/metrics.md',
      'certs/README.md',
      'manifests/chart/README.md',
    ];
    for (const page of pages) {
      const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '.';
      const targets = [...read(page).matchAll(/\]\(([^)#\s:]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
      // The project's shared design notes lie beside the repository, not in it.
      const inRepo = targets.filter((target) => !relative(repoRoot, join(repoRoot, dir, target)).startsWith('..'));
      for (const target of inRepo) expect(existsSync(join(repoRoot, dir, target)), `${page} → ${target}`).toBe(true);
    }
  });
});
