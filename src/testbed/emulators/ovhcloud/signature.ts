/**
 * The OVH request signature, checked as the API does: `X-Ovh-Application` must be a known application
 * key, `X-Ovh-Consumer` a consumer key issued to it, `X-Ovh-Timestamp` close to the API's clock, and
 * `X-Ovh-Signature` = `"$1$" + sha1hex(AS+"+"+CK+"+"+METHOD+"+"+URL+"+"+BODY+"+"+TSTAMP)`, where URL is
 * `https://<Host without port><path?query>` (what the `ovh` client signs).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { invalidApplicationKey, invalidCredential, invalidSignature, notAuthenticated, queryOutOfTime } from './api-error.js';
import type { OvhCredential } from './context.js';

export function signRequest(args: {
  applicationSecret: string;
  consumerKey: string;
  method: string;
  url: string;
  body: string;
  timestamp: number | string;
}): string {
  const joined = [args.applicationSecret, args.consumerKey, args.method, args.url, args.body, String(args.timestamp)].join('+');
  return `$1$${createHash('sha1').update(joined).digest('hex')}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function hostWithoutPort(req: IncomingMessage): string {
  const host = header(req, 'host') ?? '127.0.0.1';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? host;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function verifySignature(
  req: IncomingMessage,
  rawBody: string,
  credentials: OvhCredential[],
  clock: { nowSeconds: number; maxSkewSeconds: number },
): OvhCredential {
  const applicationKey = header(req, 'x-ovh-application');
  const ofApplication = credentials.filter((c) => c.applicationKey === applicationKey);
  if (ofApplication.length === 0) throw invalidApplicationKey();
  const consumerKey = header(req, 'x-ovh-consumer');
  if (consumerKey === undefined) throw notAuthenticated();
  const credential = ofApplication.find((c) => c.consumerKey === consumerKey);
  if (!credential) throw invalidCredential();
  const timestamp = header(req, 'x-ovh-timestamp');
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || Math.abs(Number(timestamp) - clock.nowSeconds) > clock.maxSkewSeconds) {
    throw queryOutOfTime();
  }
  const expected = signRequest({
    applicationSecret: credential.applicationSecret,
    consumerKey,
    method: (req.method ?? 'GET').toUpperCase(),
    url: `https://${hostWithoutPort(req)}${req.url ?? '/'}`,
    body: rawBody,
    timestamp,
  });
  if (!sameText(header(req, 'x-ovh-signature') ?? '', expected)) throw invalidSignature();
  return credential;
}
