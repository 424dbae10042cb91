/**
 * Reading requests and writing replies as the OVH API does: JSON bodies with `Content-Type:
 * application/json`, 200 for every success (void calls answer `null`), errors as `{class, message}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OvhApiError, badRequest } from './api-error.js';

export interface Reply {
  status: number;
  /** `undefined` renders the `null` body void OVH calls answer with. */
  json?: unknown;
  /** Already serialized (possibly broken) JSON, sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new OvhApiError(413, { class: 'Client::RequestEntityTooLarge', message: 'Request entity too large' });
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; empty is `{}`; anything else is the API's bad-request error. */
export function parseJsonObject(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('Invalid JSON received');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('Invalid JSON received: an object is expected');
  return parsed as Record<string, unknown>;
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const payload = reply.raw ?? JSON.stringify(reply.json === undefined ? null : reply.json);
  res.writeHead(reply.status, {
    ...reply.headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

export function errorReply(err: OvhApiError): Reply {
  return { status: err.status, json: err.body, headers: err.headers };
}
