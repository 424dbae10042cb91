/**
 * Structured JSON logs with upstream Karpenter's schema (zap's production encoder as upstream configures it): one
 * object per line with `level` (DEBUG, INFO, WARN, ERROR), `time` (from the injected clock), `logger`, `message`
 * and the fields. So that log queries written for upstream work here, the logger itself shapes what every caller
 * passes: the objects Karpenter names (`nodeClaim`, `nodepool`, `node`, `pod` …) become `{"NodeClaim":{"name":…}}`,
 * errors become their message with the cause chain, and credential-shaped fields are redacted whatever code logs
 * them. Where the lines go is a sink passed in (stdout in `run`, an array in tests), never a global.
 */
import type { Clock } from './clock.js';

export const LogLevels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LogLevels)[number];
export type LogFields = Readonly<Record<string, unknown>>;
/** Receives one serialized JSON line (no trailing newline). */
export type LogSink = (line: string) => void;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose every line carries `fields` too (a line's own fields win on a clash); `logger` names it. */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  clock: Clock;
  sink: LogSink;
  /** Lines below this level are dropped; default `info`. */
  level?: LogLevel;
  fields?: LogFields;
  /** Credential values the process holds (see credentialValuesOf): removed from every string, wherever quoted. */
  secrets?: readonly string[];
}

/** Upstream's logger name for everything the operator logs. */
const DefaultLoggerName = 'controller';
export const Redacted = '[REDACTED]';

export class InvalidLogLevelError extends Error {
  constructor(value: string) {
    super(`parsing log level: "${value}" is not accepted, accepted: ${LogLevels.join(', ')}`);
    this.name = 'InvalidLogLevelError';
  }
}

export function parseLogLevel(value: string): LogLevel {
  const level = LogLevels.find((l) => l === value.toLowerCase());
  if (!level) throw new InvalidLogLevelError(value);
  return level;
}

/** Field keys naming a Kubernetes object, as callers write them, and the kind upstream logs them under. */
const objectKinds: Readonly<Record<string, string>> = {
  nodeclaim: 'NodeClaim',
  nodepool: 'NodePool',
  node: 'Node',
  pod: 'Pod',
};

/** Keys whose value is a credential (compared lower-case, without `-` and `_`). */
const credentialKey =
  /password|passwd|secret|token|applicationkey|consumerkey|accesskey|secretkey|authorization|apikey|privatekey|credential|cookie/;
/** Values that are a credential whatever their key: bearer/basic authorization values and JWTs. */
const credentialValues: readonly RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
];

function isCredentialKey(key: string): boolean {
  return credentialKey.test(key.toLowerCase().replace(/[-_]/g, ''));
}

/** Shorter values would redact ordinary words. */
const minSecretLength = 8;

/** The values of credential-named variables (`SCW_SECRET_KEY`, `OVH_APPLICATION_SECRET`, …), for `secrets`. */
export function credentialValuesOf(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && value.length >= minSecretLength && isCredentialKey(name) ? [value] : [],
  );
}

function redactString(value: string, secrets: readonly string[] = []): string {
  let out = value;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(Redacted);
  for (const pattern of credentialValues)
    out = out.replace(pattern, (_match: string, scheme: unknown) => (typeof scheme === 'string' ? `${scheme} ${Redacted}` : Redacted));
  return out;
}

/**
 * Go's `%w` wrapping prints the chain as `outer: cause`: the same text under the key, the outer error's name in
 * `<key>Type`, and each link apart in `<key>Causes` when there is a cause.
 */
function errorChain(err: Error): Error[] {
  const chain: Error[] = [err];
  let cause = err.cause;
  while (cause instanceof Error && chain.length < 8 && !chain.includes(cause)) {
    chain.push(cause);
    cause = cause.cause;
  }
  return chain;
}

function errorFields(key: string, err: Error): Record<string, unknown> {
  const chain = errorChain(err);
  const last = chain[chain.length - 1]?.cause;
  const texts = chain.map((e) => e.message);
  if (last !== undefined && !(last instanceof Error)) texts.push(String(last));
  const out: Record<string, unknown> = { [key]: texts.filter((t) => t !== '').join(': '), [`${key}Type`]: err.name };
  if (texts.length > 1) out[`${key}Causes`] = chain.map((e) => ({ error: e.message, type: e.name }));
  return out;
}

/** Values with credentials removed at any depth; an Error nested in a value becomes its chained text. */
function scrub(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return scrub(errorFields('error', value).error, secrets, depth);
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isCredentialKey(k) ? Redacted : scrub(v, secrets, depth + 1);
  return out;
}

/** `ns/name` for a namespaced object's reference, else a plain name. */
function objectRef(kind: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const slash = value.indexOf('/');
  return kind === 'Pod' && slash > 0 ? { name: value.slice(slash + 1), namespace: value.slice(0, slash) } : { name: value };
}

/** The line's own keys: a field of the same name is kept beside them as `<key>Field`. */
const reservedKeys = new Set(['level', 'time', 'message']);

function shapeFields(fields: LogFields, secrets: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || name === 'logger') continue;
    const key = reservedKeys.has(name) ? `${name}Field` : name;
    const kind = objectKinds[key.toLowerCase()];
    if (isCredentialKey(key)) out[key] = Redacted;
    else if (value instanceof Error) Object.assign(out, scrub(errorFields(key, value), secrets));
    else if (kind) out[kind] = scrub(objectRef(kind, value), secrets);
    else out[key] = scrub(value, secrets);
  }
  return out;
}

function safeStringify(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record);
  } catch {
    // A circular field must not take logging down with it.
    return JSON.stringify({
      level: record.level,
      time: record.time,
      logger: record.logger,
      message: record.message,
      logError: 'fields not serializable',
    });
  }
}

class JsonLogger implements Logger {
  private readonly threshold: number;
  private readonly secrets: readonly string[];

  constructor(
    private readonly options: LoggerOptions,
    private readonly fields: LogFields,
  ) {
    this.threshold = LogLevels.indexOf(options.level ?? 'info');
    // Longest first, so a secret containing another is removed whole.
    this.secrets = [...(options.secrets ?? [])].filter((v) => v.length >= minSecretLength).sort((a, b) => b.length - a.length);
  }

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  child(fields: LogFields): Logger {
    return new JsonLogger(this.options, { ...this.fields, ...fields });
  }

  private write(level: LogLevel, message: string, fields?: LogFields): void {
    if (LogLevels.indexOf(level) < this.threshold) return;
    const all = { ...this.fields, ...fields };
    const record = {
      level: level.toUpperCase(),
      time: new Date(this.options.clock.now()).toISOString(),
      logger: typeof all.logger === 'string' ? all.logger : DefaultLoggerName,
      message: redactString(message, this.secrets),
      ...shapeFields(all, this.secrets),
    };
    this.options.sink(safeStringify(record));
  }
}

export function createLogger(options: LoggerOptions): Logger {
  return new JsonLogger(options, options.fields ?? {});
}

/** A sink that writes each line to a stream (process.stdout in `run`). */
export function streamSink(stream: { write(chunk: string): unknown }): LogSink {
  return (line) => {
    stream.write(`${line}\n`);
  };
}

/** A logger that drops everything (for callers that don't care). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
