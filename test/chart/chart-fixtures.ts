/** Renders the karpenter-eu chart for tests, once per values set. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RenderedChart, type RenderedDocument, renderChart, type RenderOptions } from './render/chart.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const chartDir = join(repoRoot, 'manifests', 'chart');

export const clouds = ['ovhcloud', 'scaleway', 'outscale'] as const;
export const certModes = ['selfSigned', 'certManager', 'provided'] as const;

/** Values for one cloud and one cert mode (provided mode gets a Secret name and a CA). */
export function valuesFor(cloud: (typeof clouds)[number], certMode: (typeof certModes)[number], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const cert = certMode === 'provided' ? { mode: certMode, provided: { secretName: 'my-webhook-tls', caBundle: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') } } : { mode: certMode };
  return { cloud: { [cloud]: { enabled: true } }, webhook: { cert }, controller: { clusterName: 'prod-par' }, ...extra };
}

export function render(values: Record<string, unknown>, options: Omit<RenderOptions, 'values'> = {}): Promise<RenderedChart> {
  return renderChart(chartDir, { ...options, values });
}

/** The rendered objects of one kind, typed as the caller's model (client-node's V1… types). */
export function ofKind<T = Record<string, unknown>>(chart: RenderedChart, kind: string): T[] {
  return chart.documents.filter((d: RenderedDocument) => d.object.kind === kind).map((d) => d.object as T);
}

export function only<T = Record<string, unknown>>(chart: RenderedChart, kind: string): T {
  const found = ofKind<T>(chart, kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, rendered ${found.length}`);
  return found[0] as T;
}
