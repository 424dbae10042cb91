/**
 * Writes every NodeClass's `Ready` condition (credentials configured, their Secret one NodeClasses may read
 * and present with the keys the cloud's client reads; then what the cloud says of the resources it names,
 * asked on a change of the class and every few minutes) and the status fields of what those names resolved
 * to, on a modest period and only when they change;
 * `kubectl describe ovhnodeclass` shows
 * the reason and the fix, and NodePools referencing a class that is not Ready report NodeClassReady False.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { type CloudName, LabelInstanceGPUName } from '../../apis/v1/labels.js';
import type { CloudProvider, DetectedCluster } from '../../cloudprovider/types.js';
import type { Condition } from '../../apis/v1/common.js';
import { type NodeClassCloudFacts, offeredGpus, requestedGpus, resolvedStatusFields } from '../../domain/nodeclass/cloud-facts.js';
import { JoinCAPinnedCondition, joinPinnedCondition, type JoinSettings } from '../../domain/nodeclass/join-verification.js';
import { type LaunchSecretFacts, nodeClassReadyCondition } from '../../domain/nodeclass/readiness.js';
import {
  meansServiceCredentials,
  nodeClassSecretReferences,
  type SecretAccessPolicy,
  secretLabelRefusal,
  secretReferenceRefusal,
} from '../../domain/secrets/secret-access.js';
import { isKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import type { Controller } from '../types.js';
import { reconcileEvery } from '../polling.js';
import { CloudFactsCache } from './cloud-facts-cache.js';

/** The Secret keys each cloud's client reads (docs/install.md). */
export const CredentialKeys: Readonly<Record<string, { cloud: CloudName; keys: readonly string[] }>> = {
  OVHNodeClass: { cloud: 'ovhcloud', keys: ['applicationKey', 'applicationSecret', 'consumerKey'] },
  ScalewayNodeClass: { cloud: 'scaleway', keys: ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY'] },
  OutscaleNodeClass: { cloud: 'outscale', keys: ['OSC_ACCESS_KEY', 'OSC_SECRET_KEY'] },
};

const resourceOf = {
  OVHNodeClass: Resources.OVHNodeClass,
  ScalewayNodeClass: Resources.ScalewayNodeClass,
  OutscaleNodeClass: Resources.OutscaleNodeClass,
} as const;

export interface NodeClassStatusControllerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  globalCredentials: Readonly<Partial<Record<CloudName, boolean>>>;
  /** Which Secrets NodeClasses may have read: a reference launches would refuse is not Ready either. */
  secretAccess: SecretAccessPolicy;
  /**
   * Reports the cluster a class runs in (OVH's kubeId: named, or detected when none is), for status.kubeId/region and Ready,
   * and what the cloud says of the resources the class names (image, subnets…), for Ready and the status.
   */
  cloudProvider?: Pick<CloudProvider, 'detectedCluster' | 'nodeClassFacts' | 'getInstanceTypes'>;
  logger?: Logger;
  /** intervalMs: the pass over the classes (no cloud call unless due); cloud*: when the cloud is asked again. */
  options?: { intervalMs?: number; cloudRefreshMs?: number; cloudBackoffMs?: number; cloudMaxBackoffMs?: number };
}

export interface NodeClassStatusController extends Controller {
  /** One pass; resolves with `Kind/name` of the classes whose status was written. */
  reconcile(): Promise<string[]>;
}

interface NodeClassObject {
  metadata?: { name?: string; generation?: number; deletionTimestamp?: string };
  spec?: { credentialsSecretRef?: { name?: string; namespace?: string }; join?: JoinSettings };
  status?: { conditions?: Condition[] } & Record<string, unknown>;
}

/** The status fields each kind reports besides its conditions. */
const statusFieldsOf: Readonly<Record<string, readonly string[]>> = {
  OVHNodeClass: ['kubeId', 'region'],
  ScalewayNodeClass: ['images'],
  OutscaleNodeClass: ['images', 'subnets', 'securityGroups'],
};

/** The kind's status fields, null for those with nothing to report (a merge patch removes them). */
function statusFields(kind: string, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries((statusFieldsOf[kind] ?? []).map((field) => [field, values[field] ?? null]));
}

const sameFields = (fields: Record<string, unknown>, status: Record<string, unknown> | undefined): boolean =>
  Object.entries(fields).every(([field, value]) => JSON.stringify(value) === JSON.stringify(status?.[field] ?? null));

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

/** The class's own credentials Secret, or the service's own Secret it names (then the service's credentials stand). */
type SecretRef = { name: string; namespace: string };

function credentialsRefs(object: NodeClassObject, access: SecretAccessPolicy): { ref?: SecretRef; serviceSecret?: SecretRef } {
  const raw = object.spec?.credentialsSecretRef;
  const named = raw?.name && raw.namespace ? { name: raw.name, namespace: raw.namespace } : undefined;
  if (!named) return {};
  return meansServiceCredentials(access, named) ? { serviceSecret: named } : { ref: named };
}

/** The Secrets a launch reads besides the credentials, each read as a launch would read it. */
async function launchSecretFacts(
  kube: Kube,
  policy: SecretAccessPolicy,
  kind: string,
  object: NodeClassObject,
): Promise<LaunchSecretFacts[]> {
  const facts: LaunchSecretFacts[] = [];
  for (const { path, ref, key } of nodeClassSecretReferences({ ...object, kind })) {
    if (path === 'spec.credentialsSecretRef') continue;
    facts.push({ path, ref, ...(key !== undefined ? { key } : {}), ...(await secretFacts(kube, policy, ref)) });
  }
  return facts;
}

function sameCondition(before: Condition | undefined, ready: Condition): boolean {
  return (
    before !== undefined &&
    before.status === ready.status &&
    before.reason === ready.reason &&
    before.message === ready.message &&
    before.observedGeneration === ready.observedGeneration
  );
}

/** The conditions this controller owns; others on the class are kept as they are. */
const WrittenConditions = new Set(['Ready', JoinCAPinnedCondition]);

/** Whether Ready and JoinCAPinned (absent when the class does not join with kubeadm) are already what they would be written as. */
function sameConditions(previous: readonly Condition[], ready: Condition, pinned: Condition | undefined): boolean {
  const before = (type: string) => previous.find((c) => c.type === type);
  const pinnedSame = pinned ? sameCondition(before(JoinCAPinnedCondition), pinned) : before(JoinCAPinnedCondition) === undefined;
  return pinnedSame && sameCondition(before('Ready'), ready);
}

function sameDetection(status: NodeClassObject['status'], detected: DetectedCluster['detected'] | undefined): boolean {
  return status?.kubeId === detected?.kubeId && status?.region === detected?.region;
}

/** The cluster the class runs in, as its status reports it: the one named, else the one detected. */
const clusterInUse = (cluster: DetectedCluster | undefined): Record<string, unknown> => ({ ...cluster?.named, ...cluster?.detected });

export function createNodeClassStatusController(deps: NodeClassStatusControllerDeps): NodeClassStatusController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodeclass.status' });
  const options = deps.options ?? {};
  const gpusAskedOf = (kind: string, name: string) => requestedGpus(deps.state.nodePoolList(), kind, name, LabelInstanceGPUName);
  /** What the cloud is asked about a class: its spec and the GPUs its NodePools ask for. */
  const askedVersion = (kind: string, name: string, generation: number | undefined): string =>
    [String(generation), ...gpusAskedOf(kind, name).map((w) => `${w.nodePool.metadata?.name ?? ''}:${w.gpu}`)].join('/');
  /** What the cloud says of the class, and whether its zones offer the GPUs its NodePools ask for by name. */
  const readFacts = async (kind: string, name: string): Promise<NodeClassCloudFacts | undefined> => {
    const facts = await deps.cloudProvider?.nodeClassFacts?.(kind, name);
    const wanted = gpusAskedOf(kind, name);
    if (wanted.length === 0 || !deps.cloudProvider) return facts;
    const gpus = [];
    for (const { nodePool, gpu } of wanted) {
      const offered = offeredGpus(await deps.cloudProvider.getInstanceTypes(nodePool));
      gpus.push({ nodePool: nodePool.metadata?.name ?? '', gpu, offered });
    }
    return { ...facts, gpus };
  };
  const cloudFacts = new CloudFactsCache(readFacts, deps.clock, {
    refreshMs: options.cloudRefreshMs ?? 5 * 60_000,
    backoffMs: options.cloudBackoffMs ?? 30_000,
    maxBackoffMs: options.cloudMaxBackoffMs ?? 10 * 60_000,
  });

  /** The cloud's detection for the class; 'unknown' when the cloud could not be asked (the class is left as it is). */
  const detectedCluster = async (kind: string, name: string): Promise<DetectedCluster | undefined | 'unknown'> => {
    try {
      return await deps.cloudProvider?.detectedCluster?.(kind, name);
    } catch (error) {
      logger.warn('reading the detected cluster of a nodeclass failed; retrying', { kind, name, error: error as Error });
      return 'unknown';
    }
  };

  /** What the Ready condition is decided on, from the class, its Secret and its cluster; undefined when the cloud could not be asked. */
  const readyInput = async (kind: keyof typeof resourceOf, object: NodeClassObject, name: string) => {
    const contract = CredentialKeys[kind] as (typeof CredentialKeys)[string];
    const { ref, serviceSecret } = credentialsRefs(object, deps.secretAccess);
    const facts = ref ? await secretFacts(deps.kube, deps.secretAccess, ref) : {};
    const launchSecrets = await launchSecretFacts(deps.kube, deps.secretAccess, kind, object);
    const cluster = await detectedCluster(kind, name);
    if (cluster === 'unknown') return undefined;
    const credentials = {
      ...(ref ? { ref } : {}),
      ...(serviceSecret ? { serviceSecret } : {}),
      ...facts,
      requiredKeys: contract.keys,
      globalCredentials: deps.globalCredentials[contract.cloud] === true,
    };
    const generation = object.metadata?.generation;
    return {
      kind,
      cloud: contract.cloud,
      credentials,
      launchSecrets,
      previous: object.status?.conditions ?? [],
      now: deps.clock.now(),
      ...(cluster ? { cluster } : {}),
      ...(generation !== undefined ? { generation } : {}),
    };
  };

  const reconcileOne = async (kind: keyof typeof resourceOf, object: NodeClassObject): Promise<boolean> => {
    const name = object.metadata?.name;
    if (!CredentialKeys[kind] || !name || object.metadata?.deletionTimestamp) return false;
    const input = await readyInput(kind, object, name);
    if (!input) return false;
    const local = nodeClassReadyCondition(input);
    // The cloud is asked only with credentials that can be used: otherwise the local reason is the one to fix.
    const onError = (error: unknown) =>
      logger.warn('reading what the cloud says of a nodeclass failed; retrying later', { kind, name, error: error as Error });
    const said =
      local.status === 'True'
        ? await cloudFacts.get(kind, name, askedVersion(kind, name, object.metadata?.generation), onError)
        : undefined;
    if (said === 'unknown') return false;
    const ready = said ? nodeClassReadyCondition({ ...input, cloudFacts: said }) : local;
    const pinned = object.spec?.join
      ? joinPinnedCondition(object.spec.join, { previous: input.previous, now: input.now, generation: input.generation })
      : undefined;
    const detected = input.cluster?.detected;
    // null removes what no longer holds (the class now names the cluster; a subnet was deleted).
    const fields = statusFields(kind, { ...clusterInUse(input.cluster), ...resolvedStatusFields(said) });
    if (sameFields(fields, object.status) && sameConditions(input.previous, ready, pinned)) return false;
    if (ready.status === 'False') logger.warn('nodeclass not ready', { kind, name, reason: ready.reason, detail: ready.message });
    if (detected && !sameDetection(object.status, detected))
      logger.info('detected the cluster of a nodeclass', { kind, name, ...detected });
    const conditions = [...input.previous.filter((c) => !WrittenConditions.has(c.type)), ready, ...(pinned ? [pinned] : [])];
    await deps.kube.patch(resourceOf[kind], { name }, { type: 'merge', body: { status: { conditions, ...fields } } }, { status: true });
    return true;
  };

  const reconcile = async (): Promise<string[]> => {
    if (!deps.state.synced()) return [];
    const written: string[] = [];
    const classes = deps.state.nodeClassList();
    cloudFacts.keepOnly(new Set(classes.map((e) => `${e.kind}/${(e.object as NodeClassObject).metadata?.name ?? ''}`)));
    for (const entry of classes) {
      if (!(entry.kind in resourceOf)) continue;
      const kind = entry.kind as keyof typeof resourceOf;
      try {
        if (await reconcileOne(kind, entry.object as NodeClassObject))
          written.push(`${kind}/${(entry.object as NodeClassObject).metadata?.name ?? ''}`);
      } catch (error) {
        if (!isKubeNotFound(error)) throw error;
      }
    }
    return written;
  };

  return {
    name: 'nodeclass.status',
    reconcile,
    start: (signal: AbortSignal) =>
      reconcileEvery(
        { clock: deps.clock, intervalMs: options.intervalMs ?? 5_000, logger, failure: 'updating nodeclass status failed; retrying' },
        reconcile,
        signal,
      ),
  };
}
