/**
 * Kubernetes' protobuf wire form (`application/vnd.kubernetes.protobuf`), as k8s.io/apimachinery's protobuf
 * serializer writes it: the magic `k8s\0`, then a runtime.Unknown whose typeMeta names apiVersion and kind and whose
 * raw bytes are the kind's message from the generated.proto of its API group. client-go 1.32+ sends every typed
 * client's body this way (Helm's release Secrets, `--create-namespace`), with no fallback to JSON.
 *
 * Objects are converted to and from the JSON form the server stores, following the Go types the messages were
 * generated from: a zero scalar on the wire is kept for a pointer field and dropped for an `omitempty` value field,
 * as kube-apiserver's decode-then-JSON would.
 */
import protobuf from 'protobufjs';
import kubeProtos from './kube-protos.json' with { type: 'json' };
import { specialTypes } from './special-types.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const metaPackage = 'k8s.io.apimachinery.pkg.apis.meta.v1';
/** meta/v1 kinds every group version serves under its own apiVersion (client-go registers them in each). */
const metaKinds = new Set([
  'Status',
  'DeleteOptions',
  'ListOptions',
  'GetOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
  'WatchEvent',
]);
/** Proto package segment per API group, where it is not the group's first label. */
const groupPackages: Record<string, string> = { '': 'core' };

type Plain = Record<string, unknown>;
/** Go's form of a field (scripts/kube-protobuf.ts): pointer, omitempty value, or struct embedded inline in JSON. */
type FieldForm = 'p' | 'o' | 'i';

let loaded: { root: protobuf.Root; unknown: protobuf.Type; forms: Record<string, Record<string, FieldForm>> } | undefined;

/** Parsed on first use: most API servers of the test bed never see a protobuf request. */
function protos(): NonNullable<typeof loaded> {
  if (!loaded) {
    const root = protobuf.Root.fromJSON(kubeProtos.descriptor as protobuf.INamespace);
    root.resolveAll();
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    loaded = { root, unknown, forms: kubeProtos.fieldForms as Record<string, Record<string, FieldForm>> };
  }
  return loaded;
}

/** The message of a kind in an apiVersion, or undefined when the kind has no protobuf form (custom resources, Tables). */
export function messageType(apiVersion: string, kind: string): protobuf.Type | undefined {
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const pkg = metaKinds.has(kind) ? metaPackage : `k8s.io.api.${groupPackages[group] ?? group.split('.')[0]}.${version}`;
  const found = protos().root.lookup(`${pkg}.${kind}`);
  return found instanceof protobuf.Type ? found : undefined;
}

/** Whether a body starts with the protobuf serializer's magic. */
export function isKubeProtobuf(body: Buffer): boolean {
  return body.length >= magic.length && body.subarray(0, magic.length).equals(magic);
}

export class ProtobufDecodeError extends Error {}

/** The envelope's apiVersion and kind, and the message decoded to the object's JSON form. */
export function decodeKubeProtobuf(body: Buffer): { apiVersion: string; kind: string; object: Plain } {
  if (!isKubeProtobuf(body))
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix ${magic.join(' ')}`);
  const { unknown } = protos();
  const envelope = unknown.toObject(unknown.decode(body.subarray(magic.length)), { defaults: true, bytes: Buffer }) as {
    typeMeta: { apiVersion: string; kind: string };
    raw: Buffer;
  };
  const { apiVersion, kind } = envelope.typeMeta;
  const type = messageType(apiVersion, kind);
  if (!type) throw new ProtobufDecodeError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const message = type.toObject(type.decode(envelope.raw), { longs: Number, bytes: String, defaults: false });
  return { apiVersion, kind, object: { apiVersion, kind, ...(fromMessage(type, message) as Plain) } };
}

/** The object in protobuf form (its apiVersion and kind name the message), or undefined when its kind has none. */
export function encodeKubeProtobuf(object: Plain): Buffer | undefined {
  const apiVersion = String(object.apiVersion ?? '');
  const kind = String(object.kind ?? '');
  const type = messageType(apiVersion, kind);
  if (!type) return undefined;
  const raw = type.encode(type.fromObject(toMessage(type, object))).finish();
  const { unknown } = protos();
  const envelope = unknown
    .encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }))
    .finish();
  return Buffer.concat([magic, envelope]);
}

function special(field: protobuf.Field): ReturnType<typeof specialTypes.get> {
  return field.resolvedType instanceof protobuf.Type ? specialTypes.get(field.resolvedType.fullName.slice(1)) : undefined;
}

function formsOf(type: protobuf.Type): Record<string, FieldForm> {
  return protos().forms[type.fullName.slice(1)] ?? {};
}

/** The embedded struct fields whose members JSON prints in the parent object. */
function inlineFields(type: protobuf.Type): protobuf.Field[] {
  const forms = formsOf(type);
  return type.fieldsArray.filter((f) => forms[f.name] === 'i' && f.resolvedType instanceof protobuf.Type);
}

/** JSON → protobufjs plain object; JSON keys the message has no field for are dropped, as Go's decoding drops them. */
function toMessage(type: protobuf.Type, json: Plain): Plain {
  const out: Plain = {};
  for (const inline of inlineFields(type)) out[inline.name] = toMessage(inline.resolvedType as protobuf.Type, json);
  for (const [key, value] of Object.entries(json)) {
    const field = type.fields[key];
    if (!field || value === null || value === undefined) continue;
    const convert = (v: unknown): unknown => toFieldValue(field, v);
    if (field.map) out[key] = Object.fromEntries(Object.entries(value as Plain).map(([k, v]) => [k, convert(v)]));
    else if (field.repeated) out[key] = (value as unknown[]).map(convert);
    else out[key] = convert(value);
  }
  return out;
}

function toFieldValue(field: protobuf.Field, value: unknown): unknown {
  const specialType = special(field);
  if (specialType) return specialType.toMessage(value);
  if (field.resolvedType instanceof protobuf.Type) return toMessage(field.resolvedType, value as Plain);
  return value;
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

/** protobufjs plain object → JSON, as Go would print the struct it decodes into. */
function fromMessage(type: protobuf.Type, message: Plain): unknown {
  const forms = formsOf(type);
  const out: Plain = {};
  for (const [key, value] of Object.entries(message)) {
    const field = type.fields[key];
    if (!field) continue;
    if (forms[key] === 'i' && field.resolvedType instanceof protobuf.Type) {
      Object.assign(out, fromMessage(field.resolvedType, value as Plain));
      continue;
    }
    const convert = (v: unknown): unknown => fromFieldValue(field, v);
    let json: unknown;
    if (field.map) json = Object.fromEntries(Object.entries(value as Plain).map(([k, v]) => [k, convert(v)]));
    else if (field.repeated) json = (value as unknown[]).map(convert);
    else json = convert(value);
    // A value field with omitempty prints nothing for its zero value; a pointer's zero is a value that was set.
    if (json === undefined || (isZero(json) && forms[key] === 'o' && !field.resolvedType)) continue;
    out[key] = json;
  }
  return out;
}

function fromFieldValue(field: protobuf.Field, value: unknown): unknown {
  const specialType = special(field);
  if (specialType) return specialType.fromMessage(value as Plain);
  if (field.resolvedType instanceof protobuf.Type) return fromMessage(field.resolvedType, value as Plain);
  return value;
}
