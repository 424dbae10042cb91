// GitOps tools (Argo CD, Flux) render the chart client-side on every sync and apply what differs: two renders of the
// same values must be the same bytes in every certificate mode, or each sync rotates something (a CA made at render
// time changed every caBundle and the certificate Secret at each sync).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certModes, chartDir, valuesFor } from './chart-fixtures.js';
import { helmOrThrow, valuesArguments } from './helm.js';

function renderText(values: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gitops-'));
  try {
    const args = ['template', 'karpenter-eu', chartDir, '--namespace', 'karpenter', '--include-crds', ...valuesArguments({ values }, dir)];
    return helmOrThrow(args).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('helm template under GitOps', () => {
  it.each(certModes)('%s: two renders are byte-identical', (mode) => {
    const values = valuesFor('ovhcloud', mode);
    const [first, second] = [renderText(values), renderText(values)];
    expect(first.length).toBeGreaterThan(0);
    expect(second).toBe(first);
  });
});
