/**
 * JSON Patch (RFC 6902, applied by the rfc6902 library) and JSON Merge Patch (RFC 7386), pure functions over
 * plain JSON values.
 * Shared by the admission webhooks (which emit JSON patches) and the simulated API server (which applies them).
 * Inputs are never mutated: every function returns a new document.
 */
import { applyPatch, type Operation } from 'rfc6902';
import { deepCopy } from './json-copy.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** A patch that cannot be applied; `operationIndex` says which operation failed. */
export class JsonPatchError extends Error {
  constructor(
    message: string,
    readonly operationIndex?: number,
  ) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escapes one reference token for a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Splits a JSON Pointer into unescaped reference tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`parsing pointer: "${pointer}" must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function deepClone<T extends JsonValue>(value: T): T {
  return deepCopy(value);
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Returns the value at `pointer`, or undefined when absent. */
export function getAtPointer(doc: JsonValue, pointer: string): JsonValue | undefined {
  let current: JsonValue | undefined = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isJsonObject(current)) {
      current = Object.prototype.hasOwnProperty.call(current, token) ? current[token] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

// rfc6902 cannot replace the object it is handed, so the document rides in a box and every pointer is rebased
// under it: operations on "" (the whole document) then work as RFC 6902 says.
const BOX = 'document';
const rebase = (pointer: string): string => `/${BOX}${pointer}`;
const unbase = (text: string): string => text.split(`/${BOX}`).join('');

function rebased(op: JsonPatchOperation): Operation {
  if (op.op === 'move' || op.op === 'copy') return { ...op, from: rebase(op.from), path: rebase(op.path) };
  return { ...op, path: rebase(op.path) } as Operation;
}

/** Checks the shape of a parsed JSON Patch document and returns it typed. */
export function parseJsonPatch(value: unknown): JsonPatchOperation[] {
  if (!Array.isArray(value)) throw new JsonPatchError('parsing json patch: the document must be an array of operations');
  value.forEach((op: unknown, i) => {
    if (!isJsonObject(op)) throw new JsonPatchError(`parsing json patch: operation ${i} is not an object`, i);
    if (typeof op.op !== 'string') throw new JsonPatchError(`parsing json patch: operation ${i} has no "op"`, i);
    if (typeof op.path !== 'string') throw new JsonPatchError(`parsing json patch: operation ${i} has no "path"`, i);
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) {
      throw new JsonPatchError(`parsing json patch: operation ${i} (${op.op}) has no "value"`, i);
    }
    if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string') {
      throw new JsonPatchError(`parsing json patch: operation ${i} (${op.op}) has no "from"`, i);
    }
  });
  return value as JsonPatchOperation[];
}

// rfc6902 copies values and sets keys by assignment, which turns a "__proto__" key (data in JSON) into a
// prototype change and loses it: such keys ride under a stand-in while the patch is applied.
const ProtoKey = '__proto__';
const ProtoStandIn = '\u0000__proto__';

/** Whether a rename below met a key or token to rename. */
interface Renames {
  met: boolean;
}

/** A copy of `value` with every `from` key renamed `to`, defined as data (never assigned). */
function renamedKeys(value: JsonValue, from: string, to: string, renames: Renames): JsonValue {
  if (Array.isArray(value)) return value.map((item) => renamedKeys(item, from, to, renames));
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    const item = renamedKeys(value[key] as JsonValue, from, to, renames);
    if (key === from) renames.met = true;
    Object.defineProperty(copy, key === from ? to : key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function renamedPointer(pointer: string, from: string, to: string, renames: Renames): string {
  const tokens = pointer.split('/');
  if (!tokens.includes(from)) return pointer;
  renames.met = true;
  return tokens.map((token) => (token === from ? to : token)).join('/');
}

function withProtoStandIn(op: JsonPatchOperation, renames: Renames): JsonPatchOperation {
  const path = renamedPointer(op.path, ProtoKey, ProtoStandIn, renames);
  if ('from' in op) return { ...op, from: renamedPointer(op.from, ProtoKey, ProtoStandIn, renames), path };
  if ('value' in op) return { ...op, path, value: renamedKeys(op.value, ProtoKey, ProtoStandIn, renames) };
  return { ...op, path };
}

/** Applies an RFC 6902 patch atomically: on any failing operation the whole patch fails. */
export function applyJsonPatch<T extends JsonValue>(doc: T, patch: readonly JsonPatchOperation[]): JsonValue {
  patch.forEach((op, i) => {
    if (op.op === 'move' && op.path.startsWith(`${op.from}/`))
      throw new JsonPatchError(`moving "${op.from}" into its own child "${op.path}" (operation ${i})`, i);
  });
  // The copy the patch works on is made by the rename walk itself: one walk, and a second only when it met one.
  const renames: Renames = { met: false };
  const box: JsonObject = { [BOX]: renamedKeys(doc, ProtoKey, ProtoStandIn, renames) };
  const results = applyPatch(
    box,
    patch.map((op) => rebased(withProtoStandIn(op, renames))),
  );
  const failed = results.findIndex((result) => result !== null);
  if (failed < 0) return renames.met ? renamedKeys(box[BOX] as JsonValue, ProtoStandIn, ProtoKey, { met: false }) : (box[BOX] as JsonValue);
  const op = patch[failed] as JsonPatchOperation;
  throw new JsonPatchError(
    `applying ${op.op} at "${op.path}": ${unbase(results[failed]?.message ?? 'failed')} (operation ${failed})`,
    failed,
  );
}

/** Applies an RFC 7386 merge patch: objects merge recursively, null deletes, everything else replaces. */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return deepClone(patch);
  const result: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setData(result, key, applyMergePatch(ownValue(result, key), value));
  }
  return result;
}

/** The object's own value at `key` ("__proto__" included), never an inherited one. */
function ownValue(object: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Sets `key` as data: assigning "__proto__" would change the object's prototype instead. */
function setData(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Computes an RFC 7386 merge patch turning `from` into `to` (arrays are replaced whole). */
export function createMergePatch(from: JsonValue, to: JsonValue): JsonValue {
  if (!isJsonObject(from) || !isJsonObject(to)) return deepClone(to);
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) if (!Object.prototype.hasOwnProperty.call(to, key)) setData(patch, key, null);
  for (const [key, value] of Object.entries(to)) {
    const before = ownValue(from, key);
    if (before === undefined) setData(patch, key, deepClone(value));
    else if (!jsonEqual(before, value))
      setData(patch, key, isJsonObject(before) && isJsonObject(value) ? createMergePatch(before, value) : deepClone(value));
  }
  return patch;
}

/**
 * Computes an RFC 6902 patch turning `from` into `to`: objects are diffed key by key, arrays and scalars
 * are replaced whole (what a mutating webhook needs; minimal diffs are not a goal).
 */
export function createJsonPatch(from: JsonValue, to: JsonValue, basePath = ''): JsonPatchOperation[] {
  if (jsonEqual(from, to)) return [];
  if (!isJsonObject(from) || !isJsonObject(to)) return [{ op: 'replace', path: basePath, value: deepClone(to) }];
  const ops: JsonPatchOperation[] = [];
  for (const key of Object.keys(from)) {
    if (!(key in to)) ops.push({ op: 'remove', path: `${basePath}/${escapePointerToken(key)}` });
  }
  for (const [key, value] of Object.entries(to)) {
    const path = `${basePath}/${escapePointerToken(key)}`;
    const before = from[key];
    if (before === undefined) ops.push({ op: 'add', path, value: deepClone(value) });
    else ops.push(...createJsonPatch(before, value, path));
  }
  return ops;
}
