/** Server-owned metadata: names, uid, timestamps, generation — set the way kube-apiserver sets them. */
import { randomUUID } from 'node:crypto';
import { invalid } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type ResourceType, apiVersionOf } from './resource-type.js';
import { jsonEqual } from '../../../util/json-patch.js';

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const randomAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** Random suffix as Kubernetes makes them (`utilrand.String`): consonants and digits, no vowels. */
export function randomSuffix(length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += randomAlphabet[Math.floor(random() * randomAlphabet.length)];
  return out;
}

export function isoTime(epochMs: number): string {
  return new Date(epochMs - (epochMs % 1000)).toISOString().replace('.000Z', 'Z');
}

export function validateName(type: ResourceType, obj: KubeObject): void {
  const name = obj.metadata.name ?? '';
  if (!name) {
    throw invalid(type, '', [
      { field: 'metadata.name', message: 'Required value: name or generateName is required', reason: 'FieldValueRequired' },
    ]);
  }
  const dnsLabelOnly = type.plural === 'namespaces' || type.plural === 'services';
  const ok = dnsLabelOnly ? label.test(name) && name.length <= 63 : subdomain.test(name) && name.length <= 253;
  if (!ok) {
    const rule = dnsLabelOnly
      ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
      : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    throw invalid(type, name, [{ field: 'metadata.name', message: `Invalid value: "${name}": ${rule}` }]);
  }
}

/** Fills the name from generateName, then uid, creationTimestamp, generation, apiVersion/kind. */
export function stampNewObject(type: ResourceType, obj: KubeObject, nowMs: number, random: () => number): KubeObject {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${randomSuffix(5, random)}`;
  validateName(type, obj);
  meta.uid = randomUUID();
  meta.creationTimestamp = isoTime(nowMs);
  meta.generation = 1;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  obj.apiVersion = apiVersionOf(type);
  obj.kind = type.kind;
  return obj;
}

/** Fields a client may not change on update: copied back from the stored object. */
export function keepImmutableMeta(next: KubeObject, current: KubeObject): void {
  const meta = next.metadata;
  const cur = current.metadata;
  meta.name = cur.name;
  meta.namespace = cur.namespace;
  meta.uid = cur.uid;
  meta.creationTimestamp = cur.creationTimestamp;
  meta.generation = cur.generation;
  if (cur.deletionTimestamp) meta.deletionTimestamp = cur.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (cur.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = cur.deletionGracePeriodSeconds;
  if (cur.generateName !== undefined) meta.generateName = cur.generateName;
}

/** Everything but metadata and status: what a generation bump tracks. */
function specPart(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

export function bumpGenerationOnSpecChange(next: KubeObject, current: KubeObject): void {
  if (!jsonEqual(specPart(next), specPart(current))) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
}
