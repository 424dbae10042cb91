/**
 * The response media type of a resource request, chosen from its Accept header as kube-apiserver's negotiation
 * does: clauses by quality, in the client's order; the first one the server can write wins; `*∕*` and no header
 * mean JSON; nothing acceptable is 406 NotAcceptable. Protobuf is written for built-in kinds only, and watches are
 * streamed in JSON (a client that accepts nothing else is told so).
 */
import { ApiError } from '../errors.js';
import { protobufMediaType } from '../protobuf/kube-protobuf.js';

export type ResponseMedia = 'json' | 'protobuf';

interface Clause {
  type: string;
  params: Map<string, string>;
  quality: number;
}

function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    if (!type) continue;
    const params = new Map(rest.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
    const quality = params.has('q') ? Number(params.get('q')) : 1;
    params.delete('q');
    if (quality > 0) clauses.push({ type: type.toLowerCase(), params, quality });
  }
  // Array.prototype.sort is stable: equal qualities keep the client's order.
  return clauses.sort((a, b) => b.quality - a.quality);
}

function mediaOf(clause: Clause, protobufServed: () => boolean): ResponseMedia | undefined {
  if (clause.type === '*/*' || clause.type === 'application/*') return 'json';
  if (clause.type === 'application/json' || clause.type === 'application/yaml') return 'json';
  // `as=`/`g=`/`v=` ask for another object (Table, PartialObjectMetadata, discovery): not served in protobuf here.
  if (clause.type === protobufMediaType && !clause.params.has('as') && protobufServed()) return 'protobuf';
  return undefined;
}

/** `protobufServed` is asked only when the client accepts protobuf (it loads the messages). */
export function negotiateResponse(accept: string | undefined, protobufServed: () => boolean): ResponseMedia {
  if (!accept?.trim()) return 'json';
  for (const clause of parseAccept(accept)) {
    const media = mediaOf(clause, protobufServed);
    if (media) return media;
  }
  const accepted = ['application/json', 'application/yaml', ...(protobufServed() ? [protobufMediaType] : [])];
  throw new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}
