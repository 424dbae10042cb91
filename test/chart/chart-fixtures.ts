/** Renders the karpenter-eu chart for tests with the real `helm template`, once per values set. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as k8s from '@kubernetes/client-node';
import { type CertificateOptions, parseOperatorOptions } from '../../src/operator/options.js';
import { helmWithValues, parseManifests, type RenderedDocument, type ValuesArguments } from './helm.js';

export type { RenderedDocument } from './helm.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const chartDir = join(repoRoot, 'manifests', 'chart');

export const clouds = ['ovhcloud', 'scaleway', 'outscale'] as const;
export const certModes = ['selfSigned', 'certManager', 'provided'] as const;

/** The cluster name every value set carries: the chart requires one. */
export const testClusterName = 'test-cluster';

/** A PEM CA for provided mode (any real certificate: the chart passes it through). */
const providedCa =
  '-----BEGIN CERTIFICATE-----\nMIIBdjCCAR2gAwIBAgIUZ3Jvd24tdXAtY2EtZm9yLXRlc3RzMAoGCCqGSM49BAMC\n-----END CERTIFICATE-----\n';

/** Values for one cloud and one cert mode (provided mode gets a Secret name and a CA). */
export function valuesFor(
  cloud: (typeof clouds)[number],
  certMode: (typeof certModes)[number],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const cert =
    certMode === 'provided'
      ? { mode: certMode, provided: { secretName: 'my-webhook-tls', caBundle: Buffer.from(providedCa).toString('base64') } }
      : { mode: certMode };
  return merged({ controller: { clusterName: testClusterName }, cloud: { [cloud]: { enabled: true } }, webhook: { cert } }, extra);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps merged key by key, as Helm merges `-f` files; anything else in `over` replaces. */
export function merged(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = isMap(value) && isMap(out[key]) ? merged(out[key], value) : value;
  return out;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** `--set` lines, as a user types them. */
  set?: string[];
}

export interface RenderedChart {
  documents: RenderedDocument[];
}

/** `helm template --include-crds`; a refusal rejects with Helm's own message. */
export async function render(values: Record<string, unknown>, options: RenderOptions = {}): Promise<RenderedChart> {
  const args = [
    'template',
    options.releaseName ?? 'karpenter-eu',
    chartDir,
    '--namespace',
    options.namespace ?? 'karpenter',
    '--include-crds',
  ];
  const valueArgs: ValuesArguments = { values, ...(options.set ? { set: options.set } : {}) };
  return { documents: parseManifests(helmWithValues(args, valueArgs).stdout) };
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

/**
 * The certificate options the chart's Deployment gives the service, parsed by the service's own option parser (the
 * pod's namespace as the downward API gives it; values read from Secrets stand in as placeholders).
 */
export function chartCertificateOptions(chart: RenderedChart, namespace = 'karpenter'): CertificateOptions {
  const container = only<k8s.V1Deployment>(chart, 'Deployment').spec?.template.spec?.containers[0] as k8s.V1Container;
  const env: Record<string, string> = { POD_NAMESPACE: namespace, POD_NAME: 'karpenter-eu-0' };
  for (const entry of container.env ?? []) if (entry.value !== undefined) env[entry.name] = entry.value;
  for (const entry of container.env ?? []) if (entry.valueFrom?.secretKeyRef) env[entry.name] = 'from-a-secret';
  const options = parseOperatorOptions([], env).certificates;
  if (!options) throw new Error('the chart does not have the service make its certificates');
  return options;
}
