/**
 * Checks a decoded JSON body against the ExtenderArgs shape, as far as the extender reads it, so the
 * domain's verbs never trip on a wrong type. Field names are matched as Go's encoding/json matches them:
 * exact first, then case-insensitively.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { type ExtenderArgs, ExtenderArgsError, type ExtenderNodeList } from '../../src/domain/extender/index.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${JSON.stringify(value).slice(0, 40)})`;
}

/** Go's case-insensitive field match: the exact key wins, else the first key equal ignoring case. */
function field(object: JsonObject, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(object)) if (key.toLowerCase() === lower) return object[key];
  return undefined;
}

function expectOptionalObject(value: unknown, path: string): void {
  if (value !== undefined && value !== null && !isObject(value))
    throw new ExtenderArgsError(`${path} is ${describe(value)}, expected an object`);
}

function expectOptionalArrayOfObjects(value: unknown, path: string): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw new ExtenderArgsError(`${path} is ${describe(value)}, expected an array`);
  value.forEach((item, i) => {
    if (!isObject(item)) throw new ExtenderArgsError(`${path}[${i}] is ${describe(item)}, expected an object`);
  });
}

/** A map of resource name -> quantity (string, or number as JSON allows); the values are parsed later. */
function expectOptionalQuantityMap(value: unknown, path: string): void {
  expectOptionalObject(value, path);
  if (!isObject(value)) return;
  for (const [name, quantity] of Object.entries(value)) {
    if (typeof quantity !== 'string' && typeof quantity !== 'number')
      throw new ExtenderArgsError(`${path}.${name} is ${describe(quantity)}, expected a quantity such as "500m" or "2Gi"`);
  }
}

function checkContainers(value: unknown, path: string): void {
  expectOptionalArrayOfObjects(value, path);
  for (const [i, container] of ((value ?? []) as JsonObject[]).entries()) {
    const resources = container.resources;
    expectOptionalObject(resources, `${path}[${i}].resources`);
    if (!isObject(resources)) continue;
    expectOptionalQuantityMap(resources.requests, `${path}[${i}].resources.requests`);
    expectOptionalQuantityMap(resources.limits, `${path}[${i}].resources.limits`);
  }
}

function decodePod(value: unknown): V1Pod {
  if (!isObject(value)) throw new ExtenderArgsError(`Pod is ${describe(value)}, expected a v1.Pod object`);
  expectOptionalObject(value.metadata, 'Pod.metadata');
  if (isObject(value.metadata)) expectOptionalArrayOfObjects(value.metadata.ownerReferences, 'Pod.metadata.ownerReferences');
  expectOptionalObject(value.spec, 'Pod.spec');
  const spec = value.spec;
  if (isObject(spec)) {
    checkContainers(spec.containers, 'Pod.spec.containers');
    checkContainers(spec.initContainers, 'Pod.spec.initContainers');
    expectOptionalQuantityMap(spec.overhead, 'Pod.spec.overhead');
    expectOptionalArrayOfObjects(spec.tolerations, 'Pod.spec.tolerations');
  }
  return value as V1Pod;
}

function decodeNode(value: unknown, path: string): V1Node {
  if (!isObject(value)) throw new ExtenderArgsError(`${path} is ${describe(value)}, expected a v1.Node object`);
  const metadata = value.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string')
    throw new ExtenderArgsError(`${path}.metadata.name is missing, expected the node name`);
  expectOptionalObject(metadata.labels, `${path}.metadata.labels`);
  expectOptionalObject(value.spec, `${path}.spec`);
  if (isObject(value.spec)) expectOptionalArrayOfObjects(value.spec.taints, `${path}.spec.taints`);
  expectOptionalObject(value.status, `${path}.status`);
  if (isObject(value.status)) expectOptionalQuantityMap(value.status.allocatable, `${path}.status.allocatable`);
  return value as V1Node;
}

function decodeNodeList(value: unknown): ExtenderNodeList | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new ExtenderArgsError(`Nodes is ${describe(value)}, expected a v1.NodeList object or null`);
  const items = value.items ?? [];
  if (!Array.isArray(items)) throw new ExtenderArgsError(`Nodes.items is ${describe(items)}, expected an array of v1.Node`);
  return { ...value, items: items.map((item, i) => decodeNode(item, `Nodes.items[${i}]`)) };
}

function decodeNodeNames(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new ExtenderArgsError(`NodeNames is ${describe(value)}, expected an array of node names or null`);
  // An index loop: entries() would allocate a pair per name, and this runs for up to 5,000 names per call.
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') throw new ExtenderArgsError(`NodeNames[${i}] is ${describe(value[i])}, expected a node name string`);
  }
  return value as string[];
}

/**
 * The Pod of an ExtenderArgs body whose node names were read apart (left as spans of the request's bytes):
 * the checks decodeExtenderArgs makes on Pod; throws ExtenderArgsError as it does.
 */
export function decodeExtenderPod(body: Record<string, unknown>): V1Pod {
  return decodePod(field(body, 'Pod'));
}

/** ExtenderArgs from a parsed JSON body; throws ExtenderArgsError when the body cannot be used. */
export function decodeExtenderArgs(body: unknown): ExtenderArgs {
  if (!isObject(body)) throw new ExtenderArgsError(`body is ${describe(body)}, expected an ExtenderArgs object {Pod, Nodes, NodeNames}`);
  const pod = decodePod(field(body, 'Pod'));
  const nodes = decodeNodeList(field(body, 'Nodes'));
  const nodeNames = decodeNodeNames(field(body, 'NodeNames'));
  if (nodes === null && nodeNames === null)
    throw new ExtenderArgsError(
      'neither Nodes nor NodeNames is set, expected one of them (Nodes without nodeCacheCapable, NodeNames with it)',
    );
  return { Pod: pod, Nodes: nodes, NodeNames: nodeNames };
}
