/**
 * Which Secrets a NodeClass may make the operator read. NodeClasses name Secrets for cloud credentials, a
 * join token and user data, and the operator ships the last two into instance user data: without a limit,
 * anyone allowed to write a NodeClass could read any Secret the operator can, its own cloud credentials
 * included. So a referenced Secret must be in one of the configured namespaces, carry the configured label
 * (a mark its owner sets on purpose), and never be one of the operator's own credentials Secrets.
 *
 * One exception, so that NodeClasses written for the existing OVHcloud provider work as written: a
 * `credentialsSecretRef` naming one of the operator's own credentials Secrets stands for the service's own
 * credentials, exactly what omitting the field gives. That Secret is then never read for the class (the
 * service's client, on the service's endpoint, is used), so its author learns nothing and can send it nowhere.
 */
import { asRecord, asString, field, kindOf } from '../admission/object-access.js';

export interface SecretName {
  namespace: string;
  name: string;
}

export interface SecretAccessPolicy {
  /** Namespaces whose Secrets NodeClasses may reference. */
  namespaces: readonly string[];
  /** The label a Secret must carry to be read for a NodeClass. */
  label: { key: string; value: string };
  /** The operator's own credentials Secrets: never readable through a NodeClass. */
  forbidden: readonly SecretName[];
}

/**
 * The namespace of NodeClasses' Secrets where the service's configuration is not at hand (`validate`,
 * `convert`): the service's own namespace by default, `karpenter` as the guides and the chart's docs install it.
 */
export const DefaultNodeClassSecretNamespace = 'karpenter';

/** The default label that marks a Secret as meant for NodeClasses. */
export const NodeClassSecretLabel = { key: 'karpenter-eu.io/nodeclass-secret', value: 'true' } as const;

function isOperatorCredentials(policy: SecretAccessPolicy, ref: SecretName): boolean {
  return policy.forbidden.some((f) => f.namespace === ref.namespace && f.name === ref.name);
}

/** Whether a `credentialsSecretRef` stands for the service's own credentials (it names one of the operator's Secrets). */
export function meansServiceCredentials(policy: SecretAccessPolicy | undefined, ref: SecretName | undefined): boolean {
  return policy !== undefined && ref !== undefined && isOperatorCredentials(policy, ref);
}

/** Why the service's credentials a `credentialsSecretRef` stands for cannot be used: the service has none for the cloud. */
export function serviceCredentialsRefusal(ref: SecretName, cloud: string): string {
  return `Secret ${ref.namespace}/${ref.name} holds the operator's own cloud credentials, which a NodeClass may only name to use the service's ${cloud} credentials, and the service has none configured; reference a Secret of your own`;
}

/**
 * The NodeClass as providers must read it: without a `credentialsSecretRef` that stands for the service's
 * credentials (a copy; the class itself is left alone).
 */
export function withServiceCredentials<T>(policy: SecretAccessPolicy, nodeClass: T): T {
  const spec = (nodeClass as { spec?: { credentialsSecretRef?: Partial<SecretName> } }).spec;
  const ref = spec?.credentialsSecretRef;
  if (!ref?.name || ref.namespace === undefined || !isOperatorCredentials(policy, { name: ref.name, namespace: ref.namespace }))
    return nodeClass;
  const { credentialsSecretRef: _own, ...rest } = spec as Record<string, unknown>;
  return { ...nodeClass, spec: rest };
}

/** Why the policy refuses the reference before the Secret is read (namespace, or the operator's own); undefined: allowed so far. */
export function secretReferenceRefusal(policy: SecretAccessPolicy, ref: SecretName): string | undefined {
  const what = `Secret ${ref.namespace}/${ref.name}`;
  if (isOperatorCredentials(policy, ref)) {
    return `${what} holds the operator's own cloud credentials and is never readable through a NodeClass; reference a Secret of your own`;
  }
  if (!policy.namespaces.includes(ref.namespace)) {
    return `${what} is in a namespace NodeClasses may not read from; accepted namespaces: ${policy.namespaces.map((n) => JSON.stringify(n)).join(', ')} (option --nodeclass-secret-namespaces)`;
  }
  return undefined;
}

/** Why the policy refuses a Secret it has read, by its labels; undefined: allowed. */
export function secretLabelRefusal(
  policy: SecretAccessPolicy,
  ref: SecretName,
  labels: Readonly<Record<string, string>> | undefined,
): string | undefined {
  const { key, value } = policy.label;
  if (labels?.[key] === value) return undefined;
  return `Secret ${ref.namespace}/${ref.name} does not carry the label ${key}=${value} that marks Secrets NodeClasses may read; add it (kubectl label secret -n ${ref.namespace} ${ref.name} ${key}=${value}) if this Secret is meant for NodeClasses`;
}

/** Where each NodeClass kind names Secrets. */
const secretFields: Readonly<Record<string, readonly (readonly string[])[]>> = {
  OVHNodeClass: [['credentialsSecretRef']],
  ScalewayNodeClass: [['credentialsSecretRef'], ['join', 'tokenSecretRef']],
  OutscaleNodeClass: [['credentialsSecretRef'], ['userData', 'secretRef']],
};

/** The Secret references of a NodeClass, with the path of each; fields that are not references are skipped (the schema reports them). */
export function nodeClassSecretReferences(nodeClass: Record<string, unknown>): { path: string; ref: SecretName; key?: string }[] {
  const found: { path: string; ref: SecretName; key?: string }[] = [];
  for (const path of secretFields[kindOf(nodeClass)] ?? []) {
    const ref = asRecord(field(nodeClass, 'spec', ...path));
    const namespace = asString(ref?.namespace);
    const name = asString(ref?.name);
    const key = asString(ref?.key);
    if (namespace !== undefined && name !== undefined)
      found.push({ path: `spec.${path.join('.')}`, ref: { namespace, name }, ...(key !== undefined ? { key } : {}) });
  }
  return found;
}
