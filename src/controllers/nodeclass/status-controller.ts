/**
 * Writes every NodeClass's `Ready` condition (credentials configured, their Secret one NodeClasses may read
 * and present with the keys the cloud's client reads), on a modest period and only when it changes;
 * `kubectl describe ovhnodeclass` shows
 * the reason and the fix, and NodePools referencing a class that is not Ready report NodeClassReady False.
 */
import type { V1Secret } from '@kubernetes/client-node';
import type { CloudName } from '../../apis/v1/labels.js';
import type { CloudProvider, DetectedCluster } from '../../cloudprovider/types.js';
import type { Condition } from '../../apis/v1/common.js';
import { nodeClassReadyCondition } from '../../domain/nodeclass/readiness.js';
import { meansServiceCredentials, type SecretAccessPolicy, secretLabelRefusal, secretReferenceRefusal } from '../../domain/secrets/secret-access.js';
import { isKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import type { Controller } from '../types.js';
import { reconcileEvery } from '../polling.js';

/** The Secret keys each cloud's client reads (docs/install.md). */
export const CredentialKeys: Readonly<Record<string, { cloud: CloudName; keys: readonly string[] }>> = {
  OVHNodeClass: { cloud: 'ovhcloud', keys: ['applicationKey', 'applicationSecret', 'consumerKey'] },
  ScalewayNodeClass: { cloud: 'scaleway', keys: ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY'] },
  OutscaleNodeClass: { cloud: 'outscale', keys: ['OSC_ACCESS_KEY', 'OSC_SECRET_KEY'] },
};

const resourceOf = { OVHNodeClass: Resources.OVHNodeClass, ScalewayNodeClass: Resources.ScalewayNodeClass, OutscaleNodeClass: Resources.OutscaleNodeClass } as const;

export interface NodeClassStatusControllerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  globalCredentials: Readonly<Partial<Record<CloudName, boolean>>>;
  /** Which Secrets NodeClasses may have read: a reference launches would refuse is not Ready either. */
  secretAccess: SecretAccessPolicy;
  /** Reports the cluster a class that names none runs in (OVH's kubeId), for Ready and status.kubeId/region. */
  cloudProvider?: Pick<CloudProvider, 'detectedCluster'>;
  logger?: Logger;
  options?: { intervalMs?: number };
}

export interface NodeClassStatusController extends Controller {
  /** One pass; resolves with `Kind/name` of the classes whose status was written. */
  reconcile(): Promise<string[]>;
}

interface NodeClassObject {
  metadata?: { name?: string; generation?: number; deletionTimestamp?: string };
  spec?: { credentialsSecretRef?: { name?: string; namespace?: string } };
  status?: { conditions?: Condition[]; kubeId?: string; region?: string };
}

type SecretFacts = { secret?: { keys: string[] } | 'missing'; refusal?: string };

/** What the Secret policy and the Secret itself say; a refused namespace is not read at all. */
async function secretFacts(kube: Kube, policy: SecretAccessPolicy, ref: { name: string; namespace: string }): Promise<SecretFacts> {
  const refusal = secretReferenceRefusal(policy, ref);
  if (refusal) return { refusal };
  try {
    const secret = await kube.get<V1Secret>(Resources.Secret, ref);
    const keys = [...Object.keys(secret.data ?? {}), ...Object.keys(secret.stringData ?? {})];
    const unlabelled = secretLabelRefusal(policy, ref, secret.metadata?.labels);
    return { secret: { keys }, ...(unlabelled ? { refusal: unlabelled } : {}) };
  } catch (error) {
    if (isKubeNotFound(error)) return { secret: 'missing' };
    throw error;
  }
}

export function createNodeClassStatusController(deps: NodeClassStatusControllerDeps): NodeClassStatusController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodeclass.status' });

  /** The cloud's detection for the class; 'unknown' when the cloud could not be asked (the class is left as it is). */
  const detectedCluster = async (kind: string, name: string): Promise<DetectedCluster | undefined | 'unknown'> => {
    try {
      return await deps.cloudProvider?.detectedCluster?.(kind, name);
    } catch (error) {
      logger.warn('reading the detected cluster of a nodeclass failed; retrying', { kind, name, error: error as Error });
      return 'unknown';
    }
  };

  const reconcileOne = async (kind: keyof typeof resourceOf, object: NodeClassObject): Promise<boolean> => {
    const contract = CredentialKeys[kind];
    const name = object.metadata?.name ?? '';
    if (!contract || !name || object.metadata?.deletionTimestamp) return false;
    const raw = object.spec?.credentialsSecretRef;
    const named = raw?.name && raw.namespace ? { name: raw.name, namespace: raw.namespace } : undefined;
    const serviceSecret = meansServiceCredentials(deps.secretAccess, named) ? named : undefined;
    const ref = serviceSecret ? undefined : named;
    const facts = ref ? await secretFacts(deps.kube, deps.secretAccess, ref) : {};
    const previous = object.status?.conditions ?? [];
    const cluster = await detectedCluster(kind, name);
    if (cluster === 'unknown') return false;
    const ready = nodeClassReadyCondition({
      kind,
      cloud: contract.cloud,
      ...(cluster ? { cluster } : {}),
      credentials: { ...(ref ? { ref } : {}), ...(serviceSecret ? { serviceSecret } : {}), ...facts, requiredKeys: contract.keys, globalCredentials: deps.globalCredentials[contract.cloud] === true },
      previous,
      ...(object.metadata?.generation !== undefined ? { generation: object.metadata.generation } : {}),
      now: deps.clock.now(),
    });
    const before = previous.find((c) => c.type === 'Ready');
    const detected = cluster?.detected;
    const sameCluster = object.status?.kubeId === detected?.kubeId && object.status?.region === detected?.region;
    if (sameCluster && before && before.status === ready.status && before.reason === ready.reason && before.message === ready.message && before.observedGeneration === ready.observedGeneration) return false;
    if (ready.status === 'False') logger.warn('nodeclass not ready', { kind, name, reason: ready.reason, message: ready.message });
    if (detected && !sameCluster) logger.info('detected the cluster of a nodeclass', { kind, name, ...detected });
    const conditions = [...previous.filter((c) => c.type !== 'Ready'), ready];
    // null removes a detection that no longer holds (the class or the operator now names the cluster).
    const clusterFields = kind === 'OVHNodeClass' ? { kubeId: detected?.kubeId ?? null, region: detected?.region ?? null } : {};
    await deps.kube.patch(resourceOf[kind], { name }, { type: 'merge', body: { status: { conditions, ...clusterFields } } }, { status: true });
    return true;
  };

  const reconcile = async (): Promise<string[]> => {
    if (!deps.state.synced()) return [];
    const written: string[] = [];
    for (const entry of deps.state.nodeClassList()) {
      if (!(entry.kind in resourceOf)) continue;
      const kind = entry.kind as keyof typeof resourceOf;
      try {
        if (await reconcileOne(kind, entry.object as NodeClassObject)) written.push(`${kind}/${(entry.object as NodeClassObject).metadata?.name ?? ''}`);
      } catch (error) {
        if (!isKubeNotFound(error)) throw error;
      }
    }
    return written;
  };

  return {
    name: 'nodeclass.status',
    reconcile,
    start: (signal: AbortSignal) => reconcileEvery({ clock: deps.clock, intervalMs: deps.options?.intervalMs ?? 5_000, logger, failure: 'updating nodeclass status failed; retrying' }, reconcile, signal),
  };
}
