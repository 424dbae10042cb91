/**
 * NodeClassResolver backed by the informer cache (NodeClasses) and the API (Secrets, read on demand: the
 * service does not watch every Secret of the cluster), within the configured Secret access policy.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { NodeClassNotReadyError } from '../cloudprovider/errors.js';
import type { NodeClassResolver, SecretReference } from '../cloudprovider/types.js';
import {
  type SecretAccessPolicy,
  secretLabelRefusal,
  secretReferenceRefusal,
  withServiceCredentials,
} from '../domain/secrets/secret-access.js';
import { isKubeNotFound } from '../kube/errors.js';
import { Resources } from '../kube/resources.js';
import type { Kube } from '../kube/types.js';
import type { ClusterState } from '../state/cluster-state.js';

/**
 * `secrets`: which Secrets NodeClasses may have read; others fail with NodeClassNotReadyError naming why. A
 * class whose credentialsSecretRef stands for the service's credentials is handed over without it.
 */
export function stateNodeClassResolver<T>(
  state: ClusterState,
  kube: Kube,
  kind: string,
  secrets: SecretAccessPolicy,
): NodeClassResolver<T> {
  return {
    getNodeClass(name: string): Promise<T> {
      const entry = state.nodeClass(kind, name);
      const deleting = (entry?.object.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp;
      if (!entry) return Promise.reject(new NodeClassNotReadyError(`getting ${kind} ${JSON.stringify(name)}: it does not exist`));
      if (deleting) return Promise.reject(new NodeClassNotReadyError(`getting ${kind} ${JSON.stringify(name)}: it is being deleted`));
      return Promise.resolve(withServiceCredentials(secrets, entry.object as T));
    },
    // Deleted ones too: their finalizer holds them while NodeClaims use them, and those NodeClaims' instances
    // are listed, found and deleted through the accounts they name.
    listNodeClasses(): Promise<T[]> {
      return Promise.resolve(state.nodeClassesOfKind(kind).map((e) => withServiceCredentials(secrets, e.object as T)));
    },
    async getSecretData(ref: SecretReference): Promise<Readonly<Record<string, string>>> {
      const what = `reading secret ${ref.namespace}/${ref.name}`;
      const refused = secretReferenceRefusal(secrets, ref);
      if (refused) throw new NodeClassNotReadyError(`${what}: ${refused}`);
      let secret: V1Secret;
      try {
        secret = await kube.get<V1Secret>(Resources.Secret, { namespace: ref.namespace, name: ref.name });
      } catch (error) {
        if (isKubeNotFound(error)) throw new NodeClassNotReadyError(`${what}: it does not exist`, { cause: error });
        throw new NodeClassNotReadyError(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      const unlabelled = secretLabelRefusal(secrets, ref, secret.metadata?.labels);
      if (unlabelled) throw new NodeClassNotReadyError(`${what}: ${unlabelled}`);
      const decoded: Record<string, string> = {};
      for (const [key, value] of Object.entries(secret.data ?? {})) decoded[key] = Buffer.from(value, 'base64').toString('utf8');
      for (const [key, value] of Object.entries(secret.stringData ?? {})) decoded[key] = value;
      return decoded;
    },
  };
}
