/** Reading request bodies and writing JSON / Status replies, never throwing on a client's mistake. */
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { damagedBody, type BodyFault } from '../../../emulators/faults.js';
import { ApiError, badRequest, internalError, unsupportedMediaType } from '../errors.js';
import { decodeKubeProtobuf, encodeKubeProtobuf, ProtobufDecodeError, protobufMediaType } from '../protobuf/kube-protobuf.js';

/** Replies a test asked to spoil (an empty body, `{}`, truncated JSON, a short list), by response. */
const spoiledReplies = new WeakMap<ServerResponse, BodyFault>();
/** Responses whose request preferred protobuf (content negotiation on its Accept header). */
const protobufReplies = new WeakSet<ServerResponse>();

/** Objects sent on this response go out in protobuf form where their kind has one. */
export function answerInProtobuf(res: ServerResponse): void {
  protobufReplies.add(res);
}

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

const jsonMediaTypes = ['application/json', 'application/yaml'];

/**
 * Decodes a JSON, YAML or (for kinds with a protobuf form) Kubernetes protobuf body; undefined for an empty body.
 * Custom resources have no protobuf form: kube-apiserver answers their protobuf bodies 415, as here.
 */
export function decodeBody(
  raw: Buffer,
  contentType: string | undefined,
  allowPatchTypes: boolean,
  protobufAccepted: () => boolean,
): unknown {
  if (raw.length === 0) return undefined;
  const media = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  if (media === protobufMediaType && !allowPatchTypes && protobufAccepted()) return decodeProtobuf(raw);
  const text = raw.toString('utf8');
  const isYaml = media === 'application/yaml' || media === 'application/apply-patch+yaml';
  const isJson = media === 'application/json' || media === '' || (allowPatchTypes && media.endsWith('+json'));
  if (!isYaml && !isJson) throw unsupportedMediaType(media, protobufAccepted() ? [...jsonMediaTypes, protobufMediaType] : jsonMediaTypes);
  try {
    return isYaml ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (err) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

function decodeProtobuf(raw: Buffer): unknown {
  try {
    return decodeKubeProtobuf(raw).object;
  } catch (err) {
    if (err instanceof ProtobufDecodeError) throw badRequest(err.message);
    throw badRequest(`the protobuf body could not be decoded: ${(err as Error).message}`);
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

/** Sends an object (or Status) as JSON, or in protobuf form when the request negotiated it and the kind has one. */
export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  if (res.headersSent || res.destroyed) return;
  const fault = code === 200 ? spoiledReplies.get(res) : undefined;
  const protobuf = !fault && protobufReplies.has(res) ? encodeKubeProtobuf(body as Record<string, unknown>) : undefined;
  // A Buffer, not a string: Node writes the header block in a string body's encoding (UTF-8), which would
  // encode the warnings' Latin-1 characters a second time.
  const payload = protobuf ?? Buffer.from(fault ? damagedBody(fault, body) : JSON.stringify(body), 'utf8');
  const headers: Record<string, string | string[] | number> = {
    'content-type': protobuf ? protobufMediaType : 'application/json',
    'content-length': payload.length,
  };
  if (warnings.length > 0) headers.warning = warnings.map(warningHeader);
  res.writeHead(code, headers);
  res.end(payload);
}

export function sendError(res: ServerResponse, err: unknown, warnings: readonly string[] = []): void {
  const apiError = err instanceof ApiError ? err : internalError(err instanceof Error ? err.message : String(err));
  sendJson(res, apiError.code, apiError.toStatus(), [...warnings, ...apiError.warnings]);
}
