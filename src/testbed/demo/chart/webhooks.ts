/**
 * The webhook configurations the release installed, as kube-apiserver calls them: each Service reference resolved
 * through the pod network, and the service's certificate checked against the configuration's caBundle for the name
 * `<service>.<namespace>.svc`, before the scenario starts, so a wrong CA or port fails with the webhook's name.
 */
import { AdmissionregistrationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { connect, checkServerIdentity, type PeerCertificate } from 'node:tls';
import { ChartDemoError } from './errors.js';
import type { PodNetwork } from './network.js';
import { serviceUrl } from './release.js';

interface ConfiguredWebhook {
  configuration: string;
  name: string;
  service: { namespace: string; name: string; port?: number; path?: string };
  caBundle?: string;
}

async function configuredWebhooks(kubeConfig: KubeConfig): Promise<ConfiguredWebhook[]> {
  const api = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  const lists = [(await api.listMutatingWebhookConfiguration()).items, (await api.listValidatingWebhookConfiguration()).items];
  return lists.flat().flatMap((c) =>
    (c.webhooks ?? []).flatMap((w) =>
      w.clientConfig.service
        ? [
            {
              configuration: c.metadata?.name ?? '',
              name: w.name,
              service: w.clientConfig.service,
              ...(w.clientConfig.caBundle ? { caBundle: w.clientConfig.caBundle } : {}),
            },
          ]
        : [],
    ),
  );
}

/** A TLS handshake as the API server makes it: the caBundle as the only trust, the Service's DNS name checked. */
function verifyTls(url: string, caPem: string, serverName: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ca: caPem,
      servername: serverName,
      checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(serverName, cert),
    });
    socket.once('secureConnect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** Each webhook's loopback URL, keyed as `serviceKey` writes it; throws the first one that cannot be reached. */
export async function checkWebhooks(kubeConfig: KubeConfig, network: PodNetwork): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const hook of await configuredWebhooks(kubeConfig)) {
    const id = `webhook ${hook.name} of ${hook.configuration}`;
    const base = await serviceUrl(kubeConfig, network, { ...hook.service, path: '' }, 443).catch((error: unknown) => {
      throw new ChartDemoError(`${id}: ${(error as Error).message}`);
    });
    if (!hook.caBundle) throw new ChartDemoError(`${id} has no caBundle: the API server cannot verify the service`);
    const serverName = `${hook.service.name}.${hook.service.namespace}.svc`;
    await verifyTls(base, Buffer.from(hook.caBundle, 'base64').toString('utf8'), serverName).catch((error: unknown) => {
      throw new ChartDemoError(
        `${id}: the service's certificate does not verify with the caBundle for ${serverName}: ${(error as Error).message}`,
      );
    });
    urls.set(serviceKey(hook.service), base);
  }
  return urls;
}

export function serviceKey(service: { namespace: string; name: string; port?: number }): string {
  return `${service.namespace}/${service.name}:${service.port ?? 443}`;
}

/** Polls until every webhook configuration of the release carries a caBundle (the service sets them in selfSigned mode). */
export async function waitForCaBundles(kubeConfig: KubeConfig, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = (await configuredWebhooks(kubeConfig)).filter((w) => !w.caBundle);
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new ChartDemoError(`no caBundle was set on ${missing.map((w) => `${w.name} of ${w.configuration}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
