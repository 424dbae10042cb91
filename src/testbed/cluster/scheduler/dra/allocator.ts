/**
 * The structured-parameters allocator of kube-scheduler's DynamicResources plugin, for one node: every request
 * of every pending claim of a pod gets devices of that node that no other claim holds and that satisfy its
 * DeviceClass's and its own selectors — `count` of them (ExactCount) or every matching one (All, none of them
 * taken), the first satisfiable `firstAvailable` subrequest, the claim's `matchAttribute` constraints — searching
 * with backtracking, as upstream does, so that one request taking a device another needs does not fail the node.
 */
import { type DeviceAttribute } from '../../../../domain/dra/flavor-devices.js';
import {
  type AllocationResult,
  type CandidateDevice,
  type DeviceRequest,
  type DeviceSelector,
  type DeviceSelectorMatcher,
  deviceId,
  type WireDeviceClass,
  type WireResourceClaim,
} from './types.js';

export interface AllocatorInput {
  nodeName: string;
  /** The pod's claims that have no allocation yet; they are allocated together. */
  claims: readonly WireResourceClaim[];
  devices: readonly CandidateDevice[];
  /** Devices already allocated to other claims (deviceId). */
  inUse: ReadonlySet<string>;
  classes: ReadonlyMap<string, WireDeviceClass>;
  matches: DeviceSelectorMatcher;
}

interface Alternative {
  /** The request name written into the result (`gpu`, or `gpu/l4` for a firstAvailable subrequest). */
  resultName: string;
  all: boolean;
  count: number;
  candidates: CandidateDevice[];
}

interface Slot {
  claimIndex: number;
  requestName: string;
  alternatives: Alternative[];
}

interface Pick {
  slot: Slot;
  resultName: string;
  devices: CandidateDevice[];
}

function alternativesOf(
  request: DeviceRequest,
): Array<{ resultName: string; className: string; selectors: DeviceSelector[]; all: boolean; count: number }> {
  const one = (resultName: string, r: NonNullable<DeviceRequest['exactly']>) => ({
    resultName,
    className: r.deviceClassName,
    selectors: r.selectors ?? [],
    all: r.allocationMode === 'All',
    count: r.count ?? 1,
  });
  if (request.exactly) return [one(request.name, request.exactly)];
  return (request.firstAvailable ?? []).map((sub) => one(`${request.name}/${sub.name}`, sub));
}

function slotsOf(input: AllocatorInput): Slot[] {
  const slots: Slot[] = [];
  input.claims.forEach((claim, claimIndex) => {
    for (const request of claim.spec.devices?.requests ?? []) {
      const alternatives = alternativesOf(request).map((alt) => {
        const deviceClass = input.classes.get(alt.className);
        const classSelectors = deviceClass?.spec?.selectors ?? [];
        const candidates = deviceClass
          ? input.devices.filter((d) => input.matches(d, classSelectors) && input.matches(d, alt.selectors))
          : [];
        return { resultName: alt.resultName, all: alt.all, count: alt.count, candidates };
      });
      slots.push({ claimIndex, requestName: request.name, alternatives });
    }
  });
  return slots;
}

/** An attribute by its qualified name (`gpu.nvidia.com/productName`); the driver's own domain may be left off. */
function attributeOf(d: CandidateDevice, qualified: string): DeviceAttribute | undefined {
  const slash = qualified.indexOf('/');
  const domain = slash < 0 ? '' : qualified.slice(0, slash);
  const name = slash < 0 ? qualified : qualified.slice(slash + 1);
  return (domain === d.driver ? d.device.attributes[name] : undefined) ?? d.device.attributes[qualified];
}

function constraintsHold(input: AllocatorInput, picks: readonly Pick[]): boolean {
  return input.claims.every((claim, claimIndex) =>
    (claim.spec.devices?.constraints ?? []).every((constraint) => {
      if (!constraint.matchAttribute) return true;
      const names = constraint.requests ?? [];
      const devices = picks
        .filter((p) => p.slot.claimIndex === claimIndex && (names.length === 0 || names.includes(p.slot.requestName)))
        .flatMap((p) => p.devices);
      const values = devices.map((d) => JSON.stringify(attributeOf(d, constraint.matchAttribute ?? '') ?? null));
      return values.every((v) => v !== 'null' && v === values[0]);
    }),
  );
}

function* combinations<T>(items: readonly T[], size: number, start = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++)
    for (const rest of combinations(items, size - 1, i + 1)) yield [items[i] as T, ...rest];
}

function choicesFor(alt: Alternative, taken: (d: CandidateDevice) => boolean): Iterable<CandidateDevice[]> {
  const free = alt.candidates.filter((d) => !taken(d));
  if (alt.all) return alt.candidates.length > 0 && free.length === alt.candidates.length ? [free] : [];
  return free.length >= alt.count ? combinations(free, alt.count) : [];
}

function search(input: AllocatorInput, slots: readonly Slot[], index: number, used: Set<string>, picks: Pick[]): Pick[] | undefined {
  if (index === slots.length) return constraintsHold(input, picks) ? [...picks] : undefined;
  const slot = slots[index] as Slot;
  const taken = (d: CandidateDevice): boolean =>
    input.inUse.has(deviceId({ ...d, device: d.device.name })) || used.has(deviceId({ ...d, device: d.device.name }));
  for (const alt of slot.alternatives) {
    for (const devices of choicesFor(alt, taken)) {
      const ids = devices.map((d) => deviceId({ ...d, device: d.device.name }));
      for (const id of ids) used.add(id);
      picks.push({ slot, resultName: alt.resultName, devices });
      const found = search(input, slots, index + 1, used, picks);
      picks.pop();
      for (const id of ids) used.delete(id);
      if (found) return found;
    }
  }
  return undefined;
}

/** One allocation per claim (in input order), or undefined when the node cannot satisfy them all. */
export function allocateOnNode(input: AllocatorInput): AllocationResult[] | undefined {
  const slots = slotsOf(input);
  const picks = search(input, slots, 0, new Set(), []);
  if (!picks) return undefined;
  const nodeSelector = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [input.nodeName] }] }] };
  return input.claims.map((_, claimIndex) => ({
    devices: {
      results: picks
        .filter((p) => p.slot.claimIndex === claimIndex)
        .flatMap((p) => p.devices.map((d) => ({ request: p.resultName, driver: d.driver, pool: d.pool, device: d.device.name }))),
    },
    nodeSelector,
  }));
}
