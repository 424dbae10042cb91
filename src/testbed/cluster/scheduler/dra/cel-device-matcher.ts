/**
 * The test bed's own evaluator of DRA device selectors: the CEL environment kube-scheduler gives them
 * (`device.driver`, `device.attributes[domain][name]`, `device.capacity[domain][name]` as quantities, the
 * `quantity()` and `semver()` libraries), on the project's CEL engine. A selector that fails to compile or
 * to evaluate (a missing attribute) does not match. The product's evaluator replaces this one where it exists.
 */
import { Environment } from '@marcbachmann/cel-js';
import { type DeviceAttribute } from '../../../../domain/dra/flavor-devices.js';
import { compareQuantities, parseQuantity, type Quantity } from '../../../../domain/quantity/index.js';
import { type CandidateDevice, type DeviceSelector, type DeviceSelectorMatcher } from './types.js';

class CelQuantity {
  constructor(readonly value: Quantity) {}
}

class CelSemver {
  readonly parts: [bigint, bigint, bigint];
  constructor(readonly text: string) {
    const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text);
    if (!match) throw new Error(`invalid semver: ${text}`);
    this.parts = [BigInt(match[1] ?? 0), BigInt(match[2] ?? 0), BigInt(match[3] ?? 0)];
  }
}

function semverCompare(a: CelSemver, b: CelSemver): bigint {
  for (let i = 0; i < 3; i++) {
    const [x, y] = [a.parts[i] as bigint, b.parts[i] as bigint];
    if (x !== y) return x < y ? -1n : 1n;
  }
  return 0n;
}

function environment(): Environment {
  const cmp = (a: CelQuantity, b: CelQuantity): bigint => BigInt(compareQuantities(a.value, b.value));
  return new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })
    .registerType('Quantity', CelQuantity)
    .registerType('Semver', CelSemver)
    .registerFunction('quantity(string): Quantity', (s: string) => new CelQuantity(parseQuantity(s)))
    .registerFunction('Quantity.compareTo(Quantity): int', cmp)
    .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) > 0n)
    .registerFunction('Quantity.isLessThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) < 0n)
    .registerFunction('semver(string): Semver', (s: string) => new CelSemver(s))
    .registerFunction('Semver.compareTo(Semver): int', semverCompare)
    .registerFunction('Semver.isGreaterThan(Semver): bool', (a: CelSemver, b: CelSemver) => semverCompare(a, b) > 0n)
    .registerFunction('Semver.isLessThan(Semver): bool', (a: CelSemver, b: CelSemver) => semverCompare(a, b) < 0n);
}

function attributeValue(attribute: DeviceAttribute): unknown {
  if ('int' in attribute) return BigInt(attribute.int);
  if ('bool' in attribute) return attribute.bool;
  if ('version' in attribute) return new CelSemver(attribute.version);
  return attribute.string;
}

/** Attribute and capacity names without a domain belong to the driver's. */
function byDomain<T, U>(entries: Readonly<Record<string, T>>, driver: string, convert: (value: T) => U): Record<string, Record<string, U>> {
  const out: Record<string, Record<string, U>> = {};
  for (const [qualified, value] of Object.entries(entries)) {
    const slash = qualified.indexOf('/');
    const domain = slash < 0 ? driver : qualified.slice(0, slash);
    const name = slash < 0 ? qualified : qualified.slice(slash + 1);
    (out[domain] ??= {})[name] = convert(value);
  }
  return out;
}

function celDevice(d: CandidateDevice): Record<string, unknown> {
  return {
    driver: d.driver,
    attributes: byDomain(d.device.attributes, d.driver, attributeValue),
    capacity: byDomain(d.device.capacity, d.driver, (c) => new CelQuantity(parseQuantity(c.value))),
  };
}

export function celDeviceMatcher(): DeviceSelectorMatcher {
  const env = environment();
  const programs = new Map<string, ((context: Record<string, unknown>) => unknown) | undefined>();
  const program = (expression: string): ((context: Record<string, unknown>) => unknown) | undefined => {
    if (!programs.has(expression)) {
      try {
        programs.set(expression, env.parse(expression) as (context: Record<string, unknown>) => unknown);
      } catch {
        programs.set(expression, undefined);
      }
    }
    return programs.get(expression);
  };
  return (d: CandidateDevice, selectors: readonly DeviceSelector[]): boolean => {
    if (selectors.length === 0) return true;
    const context = { device: celDevice(d) };
    return selectors.every((s) => {
      const run = s.cel ? program(s.cel.expression) : undefined;
      if (!run) return false;
      try {
        return run(context) === true;
      } catch {
        return false;
      }
    });
  };
}
