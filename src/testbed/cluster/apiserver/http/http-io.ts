/** Reading request bodies and writing JSON / Status replies, never throwing on a client's mistake. */
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { damagedBody, type BodyFault } from '../../../emulators/faults.js';
import { ApiError, badRequest, internalError, unsupportedMediaType } from '../errors.js';

/** Replies a test asked to spoil (an empty body, `{}`, truncated JSON, a short list), by response. */
const spoiledReplies = new WeakMap<ServerResponse, BodyFault>();

/** The 200 JSON answer to this request carries `fault` instead of the body it should. */
export function spoilReply(res: ServerResponse, fault: BodyFault): void {
  spoiledReplies.set(res, fault);
}

const maxBodyBytes = 3 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxBodyBytes}`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const bodyMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** Decodes a JSON (or YAML) body; undefined for an empty body. */
export function decodeBody(raw: Buffer, contentType: string | undefined, allowPatchTypes: boolean): unknown {
  if (raw.length === 0) return undefined;
  const media = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = raw.toString('utf8');
  const isYaml = media === 'application/yaml' || media === 'application/apply-patch+yaml';
  const isJson = media === 'application/json' || media === '' || (allowPatchTypes && media.endsWith('+json'));
  if (!isYaml && !isJson) throw unsupportedMediaType(media, bodyMediaTypes);
  try {
    return isYaml ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (err) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

/**
 * kube-apiserver writes warning text as UTF-8 bytes (Go headers carry them as they are); Node only writes
 * Latin-1 header strings, so the UTF-8 bytes go out one Latin-1 character each: the same bytes on the wire.
 * Without this, Node refuses the response (a 500) for any warning beyond Latin-1, such as a dash.
 */
function warningHeader(text: string): string {
  const escaped = `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return Buffer.from(escaped, 'utf8').toString('latin1');
}

export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  if (res.headersSent || res.destroyed) return;
  const fault = code === 200 ? spoiledReplies.get(res) : undefined;
  const payload = fault ? damagedBody(fault, body) : JSON.stringify(body);
  const headers: Record<string, string | string[] | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  };
  if (warnings.length > 0) headers.warning = warnings.map(warningHeader);
  res.writeHead(code, headers);
  // A Buffer, not a string: Node writes the header block in a string body's encoding (UTF-8), which would
  // encode the warnings' Latin-1 characters a second time.
  res.end(Buffer.from(payload, 'utf8'));
}

export function sendError(res: ServerResponse, err: unknown, warnings: readonly string[] = []): void {
  const apiError = err instanceof ApiError ? err : internalError(err instanceof Error ? err.message : String(err));
  sendJson(res, apiError.code, apiError.toStatus(), [...warnings, ...apiError.warnings]);
}
