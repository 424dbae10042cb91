/**
 * SigV4 signing of an OAPI call through `aws4` (service `api`, region = the account's region, as osc-sdk-js
 * does). The date comes from the injected clock so a FakeClock drives it in tests.
 */
import aws4 from 'aws4';

export interface SigningInput {
  url: URL;
  body: string;
  region: string;
  accessKey: string;
  secretKey: string;
  now: number;
}

/** `20260101T000000Z` */
export function amzDate(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The headers to send: Content-Type, X-Amz-Date, Authorization (Host and Content-Length are set by fetch). */
export function signedHeaders(input: SigningInput): Record<string, string> {
  const request: aws4.Request = {
    host: input.url.host,
    path: input.url.pathname,
    method: 'POST',
    service: 'api',
    region: input.region,
    body: input.body,
    headers: { 'Content-Type': 'application/json', 'X-Amz-Date': amzDate(input.now), Host: input.url.host },
  };
  aws4.sign(request, { accessKeyId: input.accessKey, secretAccessKey: input.secretKey });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    // fetch computes these itself from the URL and the body: the same values aws4 signed.
    if (name.toLowerCase() === 'host' || name.toLowerCase() === 'content-length') continue;
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}
