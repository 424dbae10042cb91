/**
 * CEL for DRA device selectors (resource.k8s.io/v1 `selectors[].cel.expression`), as kube-scheduler evaluates
 * them: `device.driver`, `device.attributes["<domain>"].<name>` and `device.capacity["<domain>"].<name>`, with the
 * Kubernetes quantity library (`quantity("40Gi")`, `compareTo`, `isGreaterThan`…) and the semver library for
 * version attributes. Each expression is parsed once per compiler; a parse error is returned, never thrown.
 */
import { Environment } from '@marcbachmann/cel-js';
import { compareQuantities, parseQuantity, type Quantity } from '../quantity/index.js';
import type { Device, DeviceAttribute } from './flavor-devices.js';

/** A quantity as CEL sees it (a registered type, so `compareTo` dispatches on it). */
export class CelQuantity {
  constructor(readonly quantity: Quantity) {}
}

/** A semantic version as CEL sees it (`major.minor.patch`, prerelease ignored for ordering beyond the core). */
export class CelSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
  ) {}
}

const semverPattern = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/;

function parseSemver(text: string): CelSemver {
  const m = semverPattern.exec(text);
  if (!m) throw new Error(`semver: ${JSON.stringify(text)} is not a semantic version (MAJOR.MINOR.PATCH)`);
  return new CelSemver(BigInt(m[1] as string), BigInt(m[2] as string), BigInt(m[3] as string));
}

function compareSemver(a: CelSemver, b: CelSemver): bigint {
  for (const part of ['major', 'minor', 'patch'] as const) if (a[part] !== b[part]) return a[part] < b[part] ? -1n : 1n;
  return 0n;
}

const compareQ = (a: CelQuantity, b: CelQuantity): bigint => BigInt(compareQuantities(a.quantity, b.quantity));

function draEnvironment(): Environment {
  return new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })
    .registerType('Quantity', CelQuantity)
    .registerType('Semver', CelSemver)
    .registerFunction('quantity(string): Quantity', (s: string) => new CelQuantity(parseQuantity(s)))
    .registerFunction('isQuantity(string): bool', (s: string) => {
      try {
        parseQuantity(s);
        return true;
      } catch {
        return false;
      }
    })
    .registerFunction('Quantity.compareTo(Quantity): int', compareQ)
    .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => compareQ(a, b) > 0n)
    .registerFunction('Quantity.isLessThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => compareQ(a, b) < 0n)
    .registerFunction('Quantity.sign(): int', (a: CelQuantity) => BigInt(Math.sign(Number(a.quantity.nanos))))
    .registerFunction('Quantity.isInteger(): bool', (a: CelQuantity) => a.quantity.nanos % 1_000_000_000n === 0n)
    .registerFunction('Quantity.asInteger(): int', (a: CelQuantity) => a.quantity.nanos / 1_000_000_000n)
    .registerFunction('Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(a.quantity.nanos) / 1e9)
    .registerFunction('semver(string): Semver', parseSemver)
    .registerFunction('isSemver(string): bool', (s: string) => semverPattern.test(s))
    .registerFunction('Semver.compareTo(Semver): int', compareSemver)
    .registerFunction('Semver.isGreaterThan(Semver): bool', (a: CelSemver, b: CelSemver) => compareSemver(a, b) > 0n)
    .registerFunction('Semver.isLessThan(Semver): bool', (a: CelSemver, b: CelSemver) => compareSemver(a, b) < 0n)
    .registerFunction('Semver.major(): int', (a: CelSemver) => a.major)
    .registerFunction('Semver.minor(): int', (a: CelSemver) => a.minor)
    .registerFunction('Semver.patch(): int', (a: CelSemver) => a.patch);
}

/** The `device` variable: attributes and capacities grouped by domain (an unqualified name is the driver's). */
export interface CelDevice {
  driver: string;
  attributes: Record<string, Record<string, unknown>>;
  capacity: Record<string, Record<string, CelQuantity>>;
}

function attributeValue(value: DeviceAttribute): unknown {
  if ('string' in value) return value.string;
  if ('int' in value) return BigInt(value.int);
  if ('bool' in value) return value.bool;
  return parseSemver(value.version);
}

function split(driver: string, name: string): [string, string] {
  const slash = name.indexOf('/');
  return slash < 0 ? [driver, name] : [name.slice(0, slash), name.slice(slash + 1)];
}

/** The device as selectors see it; a malformed capacity or version throws (the caller reports it). */
export function celDevice(driver: string, device: Device): CelDevice {
  const attributes: CelDevice['attributes'] = {};
  for (const [qualified, value] of Object.entries(device.attributes)) {
    const [domain, name] = split(driver, qualified);
    (attributes[domain] ??= {})[name] = attributeValue(value);
  }
  const capacity: CelDevice['capacity'] = {};
  for (const [qualified, value] of Object.entries(device.capacity)) {
    const [domain, name] = split(driver, qualified);
    (capacity[domain] ??= {})[name] = new CelQuantity(parseQuantity(value.value));
  }
  return { driver, attributes, capacity };
}

/** A compiled selector: true/false for a device, or the error evaluating it (a missing attribute, a non-bool result). */
export type DeviceSelector = (device: CelDevice) => boolean | Error;

/** Compiles each expression once; create one per solve or per validator. */
export class DeviceSelectorCompiler {
  private readonly environment = draEnvironment();
  private readonly compiled = new Map<string, DeviceSelector | Error>();

  compile(expression: string): DeviceSelector | Error {
    let selector = this.compiled.get(expression);
    if (!selector) {
      selector = this.parse(expression);
      this.compiled.set(expression, selector);
    }
    return selector;
  }

  private parse(expression: string): DeviceSelector | Error {
    try {
      const program = this.environment.parse(expression);
      return (device) => {
        try {
          const result = program({ device }) as unknown;
          return typeof result === 'boolean'
            ? result
            : new Error(`selector ${JSON.stringify(expression)} returned ${typeof result}, not a bool`);
        } catch (error) {
          return new Error(`selector ${JSON.stringify(expression)}: ${firstLine(error)}`);
        }
      };
    } catch (error) {
      return new Error(`selector ${JSON.stringify(expression)} does not compile: ${firstLine(error)}`);
    }
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] as string;
}
