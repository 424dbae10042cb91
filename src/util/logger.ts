/**
 * Structured JSON logs: one object per line with `level`, `time` (from the injected clock), `msg` and the
 * fields. Where the lines go is a sink passed in (stdout in `run`, an array in tests), never a global.
 */
import type { Clock } from './clock.js';

export const LogLevels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LogLevels)[number];
export type LogFields = Readonly<Record<string, unknown>>;
/** Receives one serialized JSON line (no trailing newline). */
export type LogSink = (line: string) => void;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose every line carries `fields` too (a line's own fields win on a clash). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  clock: Clock;
  sink: LogSink;
  /** Lines below this level are dropped; default `info`. */
  level?: LogLevel;
  fields?: LogFields;
}

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

/** Errors don't survive JSON.stringify (their fields are not enumerable): keep name, message and causes. */
function serializeError(err: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  if (err.cause !== undefined && depth < 5) {
    out.cause = err.cause instanceof Error ? serializeError(err.cause, depth + 1) : err.cause;
  }
  return out;
}

function serializeFields(fields: LogFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] = value instanceof Error ? serializeError(value) : value;
  }
  return out;
}

function safeStringify(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  } catch {
    // A circular field must not take logging down with it.
    return JSON.stringify({ level: record.level, time: record.time, msg: record.msg, logError: 'fields not serializable' });
  }
}

class JsonLogger implements Logger {
  private readonly threshold: number;

  constructor(
    private readonly options: LoggerOptions,
    private readonly fields: LogFields,
  ) {
    this.threshold = LogLevels.indexOf(options.level ?? 'info');
  }

  debug(msg: string, fields?: LogFields): void {
    this.write('debug', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.write('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.write('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.write('error', msg, fields);
  }

  child(fields: LogFields): Logger {
    return new JsonLogger(this.options, { ...this.fields, ...fields });
  }

  private write(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LogLevels.indexOf(level) < this.threshold) return;
    const time = new Date(this.options.clock.now()).toISOString();
    const record = { level, time, msg, ...serializeFields({ ...this.fields, ...fields }) };
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
