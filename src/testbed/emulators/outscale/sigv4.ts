/**
 * SigV4 verification as the OAPI gateway does it: the canonical request is rebuilt from the headers named in
 * the `SignedHeaders` list of `Authorization`, so any client's choice of signed headers verifies (aws4 signs
 * `content-length;content-type;host;x-amz-date`, aws4fetch `host;x-amz-date`). Written with node:crypto: the
 * test bed must not share the signing library with the client it checks.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { wireErrors } from './wire-errors.js';

export interface OscCredential {
  accessKey: string;
  secretKey: string;
}

export interface SignedRequest {
  method: string;
  /** Path as received, without the query string. */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface VerifyContext {
  credentials: readonly OscCredential[];
  region: string;
  now: number;
  /** Largest accepted difference between X-Amz-Date and the clock (real gateways: 15 min). */
  maxSkewMs: number;
}

const AUTH_RE =
  /^AWS4-HMAC-SHA256\s+Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request\s*,\s*SignedHeaders=([a-z0-9;-]+)\s*,\s*Signature=([0-9a-f]{64})$/;

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ');
}

/** `20260101T000000Z` → epoch ms, or NaN. */
function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((p) => encodeURIComponent(decodeURIComponent(p))) as [string, string?])
    .sort(([a, av = ''], [b, bv = '']) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v = '']) => `${k}=${v}`)
    .join('&');
}

export function canonicalRequest(req: SignedRequest, signedHeaders: string[]): string {
  const headerLines = signedHeaders.map((name) => `${name}:${headerValue(req.headers, name) ?? ''}\n`).join('');
  const payloadHash = headerValue(req.headers, 'x-amz-content-sha256') ?? sha256(req.body);
  return [req.method.toUpperCase(), req.path, canonicalQuery(req.query), headerLines, signedHeaders.join(';'), payloadHash].join('\n');
}

export function signingKey(secretKey: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
}

/** Returns the access key of a valid request; throws the wire error the real gateway would answer. */
export function verifySignature(req: SignedRequest, ctx: VerifyContext): string {
  const authorization = headerValue(req.headers, 'authorization');
  if (!authorization) throw wireErrors.accessDenied('the request has no Authorization header; sign it with AWS4-HMAC-SHA256');
  const m = AUTH_RE.exec(authorization);
  if (!m) throw wireErrors.accessDenied('the Authorization header is not a valid AWS4-HMAC-SHA256 signature');
  const [, accessKey, date, region, service, signedList, signature] = m as unknown as string[];
  const credential = ctx.credentials.find((c) => c.accessKey === accessKey);
  if (!credential) throw wireErrors.accessDenied(`the access key ${accessKey} does not exist`);
  if (region !== ctx.region)
    throw wireErrors.accessDenied(`the credential scope region ${region} does not match the endpoint region ${ctx.region}`);
  const signedHeaders = (signedList as string).split(';');
  for (const required of ['host', 'x-amz-date']) {
    if (!signedHeaders.includes(required)) throw wireErrors.accessDenied(`SignedHeaders must include ${required}`);
  }
  checkDate(req, ctx, date as string);
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    headerValue(req.headers, 'x-amz-date'),
    `${date}/${region}/${service}/aws4_request`,
    sha256(canonicalRequest(req, signedHeaders)),
  ].join('\n');
  const expected = createHmac('sha256', signingKey(credential.secretKey, date as string, region as string, service as string))
    .update(stringToSign)
    .digest();
  const given = Buffer.from(signature as string, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw wireErrors.accessDenied('the request signature does not match; check the secret key and the signing method');
  }
  return credential.accessKey;
}

function checkDate(req: SignedRequest, ctx: VerifyContext, scopeDate: string): void {
  const amzDate = headerValue(req.headers, 'x-amz-date') ?? '';
  const at = parseAmzDate(amzDate);
  if (Number.isNaN(at))
    throw wireErrors.accessDenied(`X-Amz-Date ${JSON.stringify(amzDate)} is not a valid ISO 8601 basic date (YYYYMMDDTHHMMSSZ)`);
  if (!amzDate.startsWith(scopeDate)) throw wireErrors.accessDenied('the credential scope date does not match X-Amz-Date');
  if (Math.abs(at - ctx.now) > ctx.maxSkewMs) {
    throw wireErrors.accessDenied(`the request time ${amzDate} is too far from the server time; check the clock`);
  }
}
