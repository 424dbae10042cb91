/**
 * What `run` checks before it starts anything: a cluster to talk to (the kubeconfig, or the in-cluster
 * service account), at least one cloud account, and that the API server answers. Each missing piece is one
 * error naming it and the fix, and a non-zero exit, instead of informers retrying an unusable URL forever.
 */
import { existsSync } from 'node:fs';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import { NoCloudConfiguredError } from '../../operator/cloud-providers.js';
import type { CloudSettings, OperatorConfig } from '../../operator/options.js';
import { UsageError } from '../errors.js';

export const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** The API server could not be reached or did not answer: exit 1 (configuration is fine, the world is not). */
export class UnreachableError extends Error {
  readonly exitCode = 1;
}

type Env = Readonly<Record<string, string | undefined>>;

function fromFile(path: string): KubeConfig {
  if (!existsSync(path))
    throw new UsageError(
      `run: the kubeconfig "${path}" (--kubeconfig or KUBECONFIG) does not exist; pass an existing file, or unset both to use the in-cluster configuration`,
    );
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromFile(path);
  } catch (err) {
    throw new UsageError(
      `run: the kubeconfig "${path}" cannot be read: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
  }
  return kubeConfig;
}

function inCluster(env: Env, tokenFile: string): KubeConfig {
  if (!env.KUBERNETES_SERVICE_HOST || !env.KUBERNETES_SERVICE_PORT) {
    throw new UsageError(
      'run: no cluster to connect to: --kubeconfig and KUBECONFIG are unset and this is not a pod (KUBERNETES_SERVICE_HOST is unset); set --kubeconfig or KUBECONFIG, or run it in the cluster',
    );
  }
  if (!existsSync(tokenFile))
    throw new UsageError(
      `run: in-cluster configuration without a service account token (${tokenFile} is missing); set automountServiceAccountToken: true on the pod, or pass --kubeconfig`,
    );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromCluster();
  return kubeConfig;
}

/** The kubeconfig `run` will use, with a current cluster whose server is an http(s) URL. */
export function resolveKubeConfig(config: OperatorConfig, env: Env, tokenFile = SERVICE_ACCOUNT_TOKEN): KubeConfig {
  const kubeConfig = config.kubeconfigPath ? fromFile(config.kubeconfigPath) : inCluster(env, tokenFile);
  const where = config.kubeconfigPath ? `the kubeconfig "${config.kubeconfigPath}"` : 'the in-cluster configuration';
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster)
    throw new UsageError(
      `run: ${where} has no cluster for its current context "${kubeConfig.getCurrentContext()}"; set current-context to a context with a cluster`,
    );
  if (!URL.canParse(cluster.server) || !/^https?:$/.test(new URL(cluster.server).protocol)) {
    throw new UsageError(
      `run: ${where}: cluster "${cluster.name}" has server ${JSON.stringify(cluster.server)}; accepted: an https:// (or http://) URL`,
    );
  }
  return kubeConfig;
}

export function requireCloud(clouds: CloudSettings): void {
  if (!clouds.ovhcloud && !clouds.scaleway && !clouds.outscale) throw new UsageError(`run: ${new NoCloudConfiguredError().message}`);
}

/** One GET /version; rejects with an UnreachableError naming the server after `timeoutMs` or on failure. */
export async function probeApiServer(kubeConfig: KubeConfig, timeoutMs: number): Promise<string> {
  const server = kubeConfig.getCurrentCluster()?.server ?? '';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000}s`)), timeoutMs);
  });
  try {
    const version = await Promise.race([kubeConfig.makeApiClient(VersionApi).getCode(), timeout]);
    return version.gitVersion;
  } catch (err) {
    // fetch wraps the socket error: "fetch failed" alone would not say why, the cause does.
    const { code, cause } = err as { code?: string; cause?: { code?: string; message?: string } };
    const reason = code ?? cause?.code ?? cause?.message ?? (err instanceof Error ? err.message.split('\n')[0] : String(err));
    throw new UnreachableError(
      `run: cannot reach the Kubernetes API server at ${server}: ${reason}; check the kubeconfig's server, the network and the credentials`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The cloud API endpoints the configured accounts talk to, for the start-up line. */
export function cloudEndpoints(clouds: CloudSettings): Record<string, string> {
  const out: Record<string, string> = {};
  if (clouds.ovhcloud) out.ovhcloud = clouds.ovhcloud.endpoint;
  if (clouds.scaleway) out.scaleway = clouds.scaleway.apiUrl ?? 'https://api.scaleway.com';
  if (clouds.outscale) out.outscale = clouds.outscale.endpoint ?? `https://api.${clouds.outscale.region}.outscale.com`;
  return out;
}
