/**
 * The DRA side of one scheduling solve: the input's claims, templates, classes and slices indexed once, the
 * selectors compiled once, and memos of "does this device match this request" and "can this flavor's devices
 * hold these claims" (pods from one template ask the same of the same flavors thousands of times).
 */
import type { InstanceType } from '../instancetypes/types.js';
import { allocate, type NodeDevice } from './allocate.js';
import { type CelDevice, celDevice, DeviceSelectorCompiler } from './cel.js';
import { type ClaimObjects, objectKey, type PodClaim, type RequestAlternative, resolvePodClaims } from './claims.js';
import { type Device, type DriverDevices, flavorDevices } from './flavor-devices.js';
import type { DraObjects } from './types.js';
import type { PodLike } from '../scheduling/types.js';

export interface PoolDevice extends NodeDevice {
  driver: string;
  /** The device as selectors read it, or why it cannot be read (a malformed capacity): it then matches nothing. */
  cel: CelDevice | Error;
  /** Equal signatures are indistinguishable to selectors (a memo key). */
  signature: string;
}

function poolDevice(driver: string, pool: string, device: Device): PoolDevice {
  let cel: CelDevice | Error;
  try {
    cel = celDevice(driver, device);
  } catch (error) {
    cel = error instanceof Error ? error : new Error(String(error));
  }
  return { id: `${driver}/${pool}/${device.name}`, driver, cel, signature: JSON.stringify([driver, device.attributes, device.capacity]) };
}

/** What a node offers and what of it is allocated already. */
export interface NodeDevices {
  devices: readonly PoolDevice[];
  taken: ReadonlySet<string>;
}

export class DraContext {
  private readonly compiler = new DeviceSelectorCompiler();
  private readonly objects: ClaimObjects;
  private readonly slicesByNode = new Map<string, PoolDevice[]>();
  private readonly allocatedIds = new Set<string>();
  private readonly matchMemo = new Map<string, Map<string, boolean>>();
  private readonly flavorMemo = new WeakMap<InstanceType, { devices: PoolDevice[]; fits: Map<string, boolean> }>();

  constructor(objects: DraObjects = {}) {
    const byKey = <T extends { metadata?: { name?: string; namespace?: string } }>(list: readonly T[] | undefined): Map<string, T> =>
      new Map((list ?? []).map((o) => [objectKey(o), o]));
    this.objects = {
      claims: byKey(objects.resourceClaims),
      templates: byKey(objects.resourceClaimTemplates),
      classes: new Map((objects.deviceClasses ?? []).map((c) => [c.metadata?.name ?? '', c])),
    };
    for (const slice of objects.resourceSlices ?? []) {
      const spec = slice.spec;
      if (!spec?.nodeName) continue;
      const list = this.slicesByNode.get(spec.nodeName) ?? [];
      for (const d of spec.devices ?? []) list.push(poolDevice(spec.driver, spec.pool.name, d));
      this.slicesByNode.set(spec.nodeName, list);
    }
    for (const claim of objects.resourceClaims ?? [])
      for (const r of claim.status?.allocation?.devices?.results ?? []) this.allocatedIds.add(`${r.driver}/${r.pool}/${r.device}`);
  }

  /** The pod's claims (undefined when it has none); throws an Error naming an object that is missing or malformed. */
  podClaims(pod: PodLike): PodClaim[] | undefined {
    return resolvePodClaims(pod, this.objects, this.compiler);
  }

  matches(alternative: RequestAlternative, device: PoolDevice): boolean {
    // Two levels rather than one joined key: signatures are long and this runs for every device tried.
    let byDevice = this.matchMemo.get(alternative.signature);
    if (!byDevice) {
      byDevice = new Map();
      this.matchMemo.set(alternative.signature, byDevice);
    }
    let result = byDevice.get(device.signature);
    if (result === undefined) {
      const cel = device.cel;
      result = !(cel instanceof Error) && alternative.selectors.every((selector) => selector(cel) === true);
      byDevice.set(device.signature, result);
    }
    return result;
  }

  /**
   * A node's devices: those its ResourceSlices publish, else those its flavor will publish (a node whose driver
   * has not published yet, an in-flight NodeClaim); devices allocated in ResourceClaim statuses are taken.
   */
  nodeDevices(nodeName: string, expected: readonly DriverDevices[] | undefined): NodeDevices {
    const published = this.slicesByNode.get(nodeName);
    const devices = published ?? (expected ?? []).flatMap((d) => d.devices.map((device) => poolDevice(d.driver, nodeName, device)));
    return { devices, taken: new Set(devices.filter((d) => this.allocatedIds.has(d.id)).map((d) => d.id)) };
  }

  /** `nodeDevices` per instance type the node may still become (its slices, once published, are the one answer). */
  nodeDeviceOptions(nodeName: string, options: readonly (readonly DriverDevices[])[] | undefined): NodeDevices[] {
    if (this.slicesByNode.has(nodeName) || !options || options.length === 0) return [this.nodeDevices(nodeName, undefined)];
    return options.map((expected) => this.nodeDevices(nodeName, expected));
  }

  /** Whether a new node of this flavor could allocate all these claims (none of them allocated yet). */
  flavorFits(type: InstanceType, claims: readonly PodClaim[]): boolean {
    let memo = this.flavorMemo.get(type);
    if (!memo) {
      const published = flavorDevices(type);
      memo = { devices: (published?.devices ?? []).map((d) => poolDevice(published?.driver ?? '', 'flavor', d)), fits: new Map() };
      this.flavorMemo.set(type, memo);
    }
    const key = claims.map((c) => c.signature).join('\u0001');
    let fits = memo.fits.get(key);
    if (fits === undefined) {
      fits = memo.devices.length > 0 && allocate(memo.devices, new Set(), claims, (a, d) => this.matches(a, d)) !== undefined;
      memo.fits.set(key, fits);
    }
    return fits;
  }

  /** The ids a further allocation of `claims` would take on a node, or undefined when they cannot be allocated there. */
  allocateOn(node: NodeDevices, taken: ReadonlySet<string>, claims: readonly PodClaim[]): string[] | undefined {
    return allocate(node.devices, taken, claims, (a, d) => this.matches(a, d));
  }
}
