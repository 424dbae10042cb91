/**
 * What an administrator would `kubectl apply` before the service runs: our CRDs, the shipped webhook
 * configurations (with the loopback CA as caBundle), credentials Secrets and manifests. Goes through the
 * API server like kubectl, so admission webhooks see every object.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CustomObjectsApi, type KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { buildCrd, CrdDefinitions } from '../../apis/index.js';

/** A file of the project (`manifests/…`), found from this module whether run from src/ or a build. */
export function projectFile(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  // The checkout's root (the build copies package.json into dist/ too, without the manifests).
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'manifests'))) {
    const parent = dirname(dir);
    if (parent === dir) return relative;
    dir = parent;
  }
  return join(dir, relative);
}

export function readManifest(file: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => doc.toJS() as KubernetesObject | null)
    .filter((o): o is KubernetesObject => o !== null && typeof o === 'object');
}

/**
 * Posts each CRD as the JSON `kubectl apply` sends. Not through ApiextensionsV1Api: client-node's typed models
 * serialize a plain object by their own field names (`_default`, `xKubernetesValidations`), so the schema's
 * `default`, `x-kubernetes-*` and CEL rules would be dropped on the way.
 */
export async function installCrds(kubeConfig: KubeConfig): Promise<void> {
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  for (const def of CrdDefinitions)
    await api.createClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      body: buildCrd(def),
    });
}

/** The webhook configurations of `manifests/webhooks/`, trusting `caPem`. */
export async function installWebhookConfigurations(kubeConfig: KubeConfig, file: string, caPem: string): Promise<void> {
  const caBundle = Buffer.from(caPem).toString('base64');
  const objects = readManifest(file).map((o) => {
    const config = o as KubernetesObject & { webhooks?: { clientConfig: { caBundle?: string } }[] };
    for (const hook of config.webhooks ?? []) hook.clientConfig.caBundle = caBundle;
    return config;
  });
  await applyObjects(kubeConfig, objects);
}

/** Creates each object (server-side defaults and admission apply); a denial rejects with the API's Status. */
export async function applyObjects(kubeConfig: KubeConfig, objects: readonly KubernetesObject[]): Promise<void> {
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  for (const object of objects) await api.create(object);
}

/** The API server's message for a refused request (the text `kubectl` prints after `Error from server`). */
export function apiErrorMessage(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeJson(body) : body;
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : error instanceof Error ? error.message : String(error);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}
