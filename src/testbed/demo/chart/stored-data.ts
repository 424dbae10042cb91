/** Secrets and ConfigMaps as the kubelet reads them for a pod: from the API server, data decoded. */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import type { StoredData } from './container.js';

function notFound(error: unknown): boolean {
  return (error as { code?: number }).code === 404;
}

function decode(data: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
}

export function storedData(kubeConfig: KubeConfig, extraConfigMaps: readonly V1ConfigMap[] = []): StoredData {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async secret(namespace, name) {
      try {
        const secret = await api.readNamespacedSecret({ namespace, name });
        return { ...decode(secret.data), ...(secret.stringData ?? {}) };
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    async configMap(namespace, name) {
      const extra = extraConfigMaps.find((c) => c.metadata?.namespace === namespace && c.metadata.name === name);
      if (extra) return { ...(extra.data ?? {}) };
      try {
        const map = await api.readNamespacedConfigMap({ namespace, name });
        return { ...(map.data ?? {}), ...decode(map.binaryData) };
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
  };
}
