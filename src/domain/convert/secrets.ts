/**
 * The Secrets a converted NodeClass names, written where and as the service reads them (one rule,
 * src/domain/secrets/secret-access.ts): in the `karpenter` namespace, labelled karpenter-eu.io/nodeclass-secret=true.
 * The Scaleway GPU controller kept its keys in a Secret of its own namespace; its join was its own cloud-init,
 * where karpenter-eu joins with a bootstrap token.
 */
import { asString, field, nameOf } from '../admission/object-access.js';
import type { KubeObject } from '../admission/types.js';
import { DefaultNodeClassSecretNamespace, NodeClassSecretLabel } from '../secrets/secret-access.js';
import type { ConvertNote } from './types.js';

/** What a placeholder looks like in the guides (`<VOTRE_SCW_ACCESS_KEY>`, `https://<cluster-endpoint>`). */
const Placeholder = /<[^<>\s][^<>]*>/;

export const JoinTokenSecret = { name: 'karpenter-join-token', namespace: DefaultNodeClassSecretNamespace, key: 'token' } as const;
/** A bootstrap token is `[a-z0-9]{6}.[a-z0-9]{16}`: this stands for one until the user writes theirs. */
export const JoinTokenPlaceholder = '<bootstrap-token>';

export function secretValue(secret: KubeObject, key: string): string | undefined {
  const plain = asString(field(secret, 'stringData', key));
  if (plain !== undefined) return plain;
  const encoded = asString(field(secret, 'data', key));
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

function nodeClassSecret(name: string, stringData: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: DefaultNodeClassSecretNamespace, labels: { [NodeClassSecretLabel.key]: NodeClassSecretLabel.value } },
    type: 'Opaque',
    stringData,
  };
}

const placement = `in ${DefaultNodeClassSecretNamespace}, labelled ${NodeClassSecretLabel.key}=${NodeClassSecretLabel.value}: where the service reads NodeClasses' Secrets`;

/** The controller's credentials as a NodeClass Secret: the keys the service reads, under a name of the class. */
export function credentialsSecret(source: KubeObject, className: string, keys: readonly string[], notes: ConvertNote[]): KubeObject {
  const data = Object.fromEntries(
    keys.flatMap((k) => (secretValue(source, k) === undefined ? [] : [[k, secretValue(source, k) as string]])),
  );
  const from = `${asString(field(source, 'metadata', 'namespace')) ?? 'default'}/${nameOf(source)}`;
  notes.push({ path: [], comment: `moved from ${from}, ${placement}; only the keys the service reads (${keys.join(', ')})` });
  return nodeClassSecret(`${className}-credentials`, data);
}

/** The join-token Secret a Scaleway NodeClass names, the token left for the user to write. */
export function joinTokenSecret(notes: ConvertNote[]): KubeObject {
  notes.push({ path: [], comment: `the bootstrap token new nodes join with (kubeadm token create), ${placement}` });
  return nodeClassSecret(JoinTokenSecret.name, { [JoinTokenSecret.key]: JoinTokenPlaceholder });
}

export interface PlaceholderField {
  kind: string;
  /** `namespace/name` for namespaced objects. */
  name: string;
  path: string;
  value: string;
}

function walk(value: unknown, path: string, found: (path: string, value: string) => void): void {
  if (typeof value === 'string') {
    if (Placeholder.test(value)) found(path, value);
  } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, found));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k, found);
}

/** Every field of the objects still holding a placeholder, for the user to fill in. */
export function placeholdersOf(objects: readonly KubeObject[]): PlaceholderField[] {
  const fields: PlaceholderField[] = [];
  for (const object of objects) {
    const namespace = asString(field(object, 'metadata', 'namespace'));
    const name = namespace ? `${namespace}/${nameOf(object)}` : nameOf(object);
    const { apiVersion: _v, kind, metadata: _m, ...rest } = object;
    walk(rest, '', (path, value) => fields.push({ kind: String(kind), name, path, value }));
  }
  return fields;
}
