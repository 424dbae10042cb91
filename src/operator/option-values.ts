/**
 * Parsers for single option values (durations, ports, booleans), each naming the flag or env variable the
 * value came from so a bad setting is fixed from the message alone.
 */

import { InvalidDurationError, parseDurationMs as parseApiDurationMs } from '../domain/disruption/duration.js';
import { NANOS_PER_UNIT, parseQuantity, QuantityParseError } from '../domain/quantity/index.js';

/** Where a value came from: `--batch-idle-duration` or `BATCH_IDLE_DURATION`. */
export type OptionSource = string;

export class InvalidOptionError extends Error {
  constructor(
    readonly source: OptionSource,
    readonly value: string,
    readonly accepted: string,
  ) {
    super(`parsing options: ${source} is ${JSON.stringify(value)}; accepted: ${accepted}`);
    this.name = 'InvalidOptionError';
  }
}

/** Go duration strings as Karpenter's flags take them (`500ms`, `10s`, `1m30s`, `2h`): the NodePool fields' grammar. */
export function parseDurationMs(source: OptionSource, value: string): number {
  try {
    return parseApiDurationMs(source, value);
  } catch (error) {
    if (error instanceof InvalidDurationError) throw new InvalidOptionError(source, value, 'a duration such as 500ms, 10s, 1m30s or 2h');
    throw error;
  }
}

/** A positive duration (a window or an interval of 0 would spin). */
export function parsePositiveDurationMs(source: OptionSource, value: string): number {
  const ms = parseDurationMs(source, value);
  if (ms <= 0) throw new InvalidOptionError(source, value, 'a duration greater than 0, such as 500ms or 10s');
  return ms;
}

/** A TCP port; 0 asks the system for a free one (tests and the demo). */
export function parsePort(source: OptionSource, value: string): number {
  const port = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || port > 65535) throw new InvalidOptionError(source, value, 'a port number from 0 to 65535');
  return port;
}

const truthy = new Set(['true', '1', 'yes']);
const falsy = new Set(['false', '0', 'no']);

export function parseBoolean(source: OptionSource, value: string): boolean {
  const text = value.trim().toLowerCase();
  if (truthy.has(text)) return true;
  if (falsy.has(text)) return false;
  throw new InvalidOptionError(source, value, 'true or false');
}

/** An http(s) URL without a trailing slash (the SDKs refuse one). */
export function parseUrl(source: OptionSource, value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidOptionError(source, value, 'an http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError(source, value, 'an http:// or https:// URL');
  return value.trim().replace(/\/+$/, '');
}

/**
 * The cluster name: it becomes a tag value on Scaleway (comma-separated lists) and Outscale and a label value
 * on MKS node pools, hence a DNS label of at most 63 characters.
 */
export function parseClusterName(source: OptionSource, value: string): string {
  const text = value.trim();
  if (!/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/.test(text)) {
    throw new InvalidOptionError(
      source,
      value,
      'a lowercase DNS label of at most 63 characters: a-z, 0-9, "-" and ".", starting and ending with a letter or digit',
    );
  }
  return text;
}

/** A DNS-1123 name (lease name, namespace). */
export function parseName(source: OptionSource, value: string): string {
  const text = value.trim();
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(text)) {
    throw new InvalidOptionError(source, value, 'a lowercase DNS name: a-z, 0-9, "-" and ".", starting and ending with a letter or digit');
  }
  return text;
}

const MiB = 1024 * 1024;

/** A byte count written as a Kubernetes quantity (`16Mi`, `64M`), from `min` to `max` bytes. */
export function parseByteSize(source: OptionSource, value: string, range: { min: number; max: number }): number {
  const accepted = `a byte quantity from ${range.min / MiB}Mi to ${range.max / MiB}Mi, such as 16Mi`;
  let nanos: bigint;
  try {
    nanos = parseQuantity(value.trim()).nanos;
  } catch (error) {
    if (error instanceof QuantityParseError) throw new InvalidOptionError(source, value, accepted);
    throw error;
  }
  const bytes = Number(nanos / NANOS_PER_UNIT);
  if (nanos % NANOS_PER_UNIT !== 0n || bytes < range.min || bytes > range.max) throw new InvalidOptionError(source, value, accepted);
  return bytes;
}
