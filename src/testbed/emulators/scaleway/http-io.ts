/**
 * Reading requests and writing replies the way Scaleway does: JSON bodies with `Content-Type:
 * application/json` exactly (the SDK parses nothing else), 204 with no body, errors as `{type, message…}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ScalewayApiError, invalidRequest } from './api-error.js';

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  /** Already serialized (possibly broken) JSON, sent as is with the JSON content type. */
  rawJson?: string;
  headers?: Record<string, string>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The raw body, refusing oversized payloads with the API's own error rather than crashing. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new ScalewayApiError(413, { type: 'invalid_request_error', message: 'request body too large' });
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; an empty body is `{}`; anything else is the API's invalid-request error. */
export function parseJsonObject(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidRequest('invalid json body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidRequest('json body must be an object');
  return parsed as Record<string, unknown>;
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined;
  if (reply.status !== 204) {
    if (reply.rawJson !== undefined) {
      payload = reply.rawJson;
      headers['Content-Type'] = 'application/json';
    } else if (reply.json !== undefined) {
      payload = JSON.stringify(reply.json);
      headers['Content-Type'] = 'application/json';
    } else if (reply.text !== undefined) {
      payload = reply.text;
      headers['Content-Type'] = 'text/plain';
    }
  }
  if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export function errorReply(err: ScalewayApiError): Reply {
  return { status: err.status, json: err.body, headers: err.headers };
}
