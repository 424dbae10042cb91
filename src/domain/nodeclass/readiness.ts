/**
 * A NodeClass's `Ready` condition: where its credentials come from and whether that Secret holds the keys
 * the cloud's client needs, whether every other Secret a launch reads (join token, user data) may be read and
 * holds its key, then what the cloud said (cluster detection, credentials, image, subnets…). The reason names the cause and the
 * message the fix, as upstream's EC2NodeClass does; the NodePool status controller reads it (NodeClassReady).
 */
import type { Condition } from '../../apis/v1/common.js';
import { serviceCredentialsRefusal } from '../secrets/secret-access.js';
import { cloudVerdict, type NodeClassCloudFacts } from './cloud-facts.js';

export interface CredentialFacts {
  /** `spec.credentialsSecretRef`, when set. */
  ref?: { name: string; namespace: string };
  /** The referenced Secret's keys, or `missing` when it does not exist. */
  secret?: { keys: readonly string[] } | 'missing';
  /** `spec.credentialsSecretRef` when it names the operator's own credentials Secret: it stands for the service's credentials. */
  serviceSecret?: { name: string; namespace: string };
  /** Why the NodeClass Secret policy refuses the reference (namespace, label, the operator's own); unset: allowed. */
  refusal?: string;
  /** Keys the cloud's client reads from the Secret. */
  requiredKeys: readonly string[];
  /** The service has this cloud's credentials itself (then the class may omit credentialsSecretRef). */
  globalCredentials: boolean;
}

/** What the cloud found out about the class's cluster when the class does not name it (OVH's kubeId). */
export interface ClusterFacts {
  detected?: { kubeId: string; region: string };
  /** Why it could not be detected: the candidates and the fix. */
  notDetected?: string;
}

/** A Secret a launch reads besides the credentials (a join token, user data), as the status controller found it. */
export interface LaunchSecretFacts {
  /** The field naming it: spec.join.tokenSecretRef, spec.userData.secretRef. */
  path: string;
  ref: { name: string; namespace: string };
  /** The key the launch reads from it. */
  key?: string;
  /** Its keys, or `missing` when it does not exist; unset when it was not read (refused). */
  secret?: { keys: readonly string[] } | 'missing';
  /** Why the NodeClass Secret policy refuses it; unset: allowed. */
  refusal?: string;
}

export interface ReadinessInput {
  kind: string;
  /** The cloud of the kind, for messages. */
  cloud?: string;
  credentials: CredentialFacts;
  /** Every other Secret a launch reads: a launch fails on any of them, so Ready does too. */
  launchSecrets?: readonly LaunchSecretFacts[];
  cluster?: ClusterFacts;
  /** What the cloud said about the resources the class names; unset until it was asked. */
  cloudFacts?: NodeClassCloudFacts;
  previous: readonly Condition[];
  generation?: number;
  now: number;
}

function verdict(input: ReadinessInput): { ok: boolean; reason: string; message: string } {
  const { ref, secret, requiredKeys, globalCredentials, serviceSecret } = input.credentials;
  if (serviceSecret) {
    return globalCredentials
      ? {
          ok: true,
          reason: 'Ready',
          message: `using the service's credentials (credentialsSecretRef names its own Secret ${serviceSecret.namespace}/${serviceSecret.name})`,
        }
      : { ok: false, reason: 'CredentialsNotConfigured', message: serviceCredentialsRefusal(serviceSecret, input.cloud ?? input.kind) };
  }
  if (!ref) {
    return globalCredentials
      ? { ok: true, reason: 'Ready', message: "using the service's credentials" }
      : {
          ok: false,
          reason: 'CredentialsNotConfigured',
          message: `no credentialsSecretRef and no credentials configured for the service: set spec.credentialsSecretRef to a Secret with ${requiredKeys.join(', ')}`,
        };
  }
  const where = `Secret ${ref.namespace}/${ref.name}`;
  if (input.credentials.refusal) return { ok: false, reason: 'CredentialsSecretNotAllowed', message: input.credentials.refusal };
  if (secret === undefined || secret === 'missing')
    return {
      ok: false,
      reason: 'CredentialsSecretNotFound',
      message: `${where} does not exist: create it with keys ${requiredKeys.join(', ')}`,
    };
  const missing = requiredKeys.filter((k) => !secret.keys.includes(k));
  if (missing.length > 0)
    return {
      ok: false,
      reason: 'CredentialsIncomplete',
      message: `${where} lacks ${missing.join(', ')}: add ${missing.length === 1 ? 'it' : 'them'} (keys read: ${requiredKeys.join(', ')})`,
    };
  return { ok: true, reason: 'Ready', message: `credentials from ${where}` };
}

function withCluster(input: ReadinessInput): { ok: boolean; reason: string; message: string } {
  const credentials = verdict(input);
  const cluster = input.cluster;
  if (!credentials.ok || cluster === undefined) return credentials;
  if (cluster.notDetected !== undefined) return { ok: false, reason: 'KubeIdNotDetected', message: cluster.notDetected };
  if (cluster.detected === undefined) return credentials;
  const { kubeId, region } = cluster.detected;
  return {
    ...credentials,
    message: `${credentials.message}; MKS cluster ${kubeId} (${region}) detected: the project's one cluster whose nodes are this cluster's`,
  };
}

function launchSecretVerdict(facts: LaunchSecretFacts): { ok: false; reason: string; message: string } | undefined {
  const where = `Secret ${facts.ref.namespace}/${facts.ref.name}`;
  const key = facts.key !== undefined ? JSON.stringify(facts.key) : undefined;
  if (facts.refusal) return { ok: false, reason: 'LaunchSecretNotAllowed', message: `${facts.path}: ${facts.refusal}` };
  if (facts.secret === undefined || facts.secret === 'missing')
    return {
      ok: false,
      reason: 'LaunchSecretNotFound',
      message: `${facts.path}: ${where} does not exist: create it${key ? ` with key ${key}` : ''}; launches fail until then`,
    };
  if (facts.key !== undefined && !facts.secret.keys.includes(facts.key))
    return {
      ok: false,
      reason: 'LaunchSecretKeyMissing',
      message: `${facts.path}: ${where} has no key ${key} (keys: ${facts.secret.keys.join(', ') || 'none'}); add it or fix ${facts.path}.key`,
    };
  return undefined;
}

function withLaunchSecrets(input: ReadinessInput): { ok: boolean; reason: string; message: string } {
  const before = withCluster(input);
  if (!before.ok) return before;
  for (const facts of input.launchSecrets ?? []) {
    const refused = launchSecretVerdict(facts);
    if (refused) return refused;
  }
  return before;
}

function withCloud(input: ReadinessInput): { ok: boolean; reason: string; message: string } {
  const before = withLaunchSecrets(input);
  const refused = before.ok && input.cloudFacts ? cloudVerdict(input.cloudFacts) : undefined;
  return refused ? { ok: false, ...refused } : before;
}

/** The Ready condition, keeping lastTransitionTime while the status does not change. */
export function nodeClassReadyCondition(input: ReadinessInput): Condition {
  const { ok, reason, message } = withCloud(input);
  const status = ok ? 'True' : 'False';
  const before = input.previous.find((c) => c.type === 'Ready');
  const lastTransitionTime = before?.status === status ? before.lastTransitionTime : new Date(input.now).toISOString();
  return {
    type: 'Ready',
    status,
    reason,
    message,
    lastTransitionTime,
    ...(input.generation !== undefined ? { observedGeneration: input.generation } : {}),
  };
}
