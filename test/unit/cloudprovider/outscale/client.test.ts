import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutscaleClient } from '../../../../src/cloudprovider/outscale/client.js';
import {
  isCapacity,
  isNotFound,
  isQuota,
  isThrottle,
  isTransient,
  OutscaleApiError,
  OutscaleResponseError,
  OutscaleTransportError,
} from '../../../../src/cloudprovider/outscale/errors.js';
import { readAllPages, PaginationLoopError } from '../../../../src/cloudprovider/outscale/pagination.js';
import { amzDate } from '../../../../src/cloudprovider/outscale/signing.js';
import { FakeClock } from '../../../../src/util/clock.js';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function fakeFetch(reply: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    const s = { url: String(input), headers: init?.headers as Record<string, string>, body: String(init?.body) };
    sent.push(s);
    return reply(s);
  }) as typeof fetch;
  return { sent, impl };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function client(fetchImpl: typeof fetch, endpoint = 'https://api.eu-west-2.outscale.com') {
  return createOutscaleClient({
    endpoint,
    region: 'eu-west-2',
    accessKey: 'AKTEST',
    secretKey: 'SKTEST',
    fetch: fetchImpl,
    clock: new FakeClock(Date.UTC(2026, 0, 2, 3, 4, 5)),
  });
}

describe('outscale client: requests', () => {
  it('POSTs PascalCase JSON to /api/v1/<Action>, SigV4-signed for service api and the account region', async () => {
    const f = fakeFetch(() => json(200, { Vms: [], ResponseContext: { RequestId: 'r-1' } }));
    await client(f.impl, 'https://api.eu-west-2.outscale.com/api/v1/').readVms({ Filters: { TagKeys: ['k'] } });
    const [sent] = f.sent;
    expect(sent?.url).toBe('https://api.eu-west-2.outscale.com/api/v1/ReadVms');
    expect(JSON.parse(sent!.body)).toEqual({ Filters: { TagKeys: ['k'] } });
    expect(sent?.headers['X-Amz-Date']).toBe('20260102T030405Z');
    expect(sent?.headers['Content-Type']).toBe('application/json');
    expect(sent?.headers.Authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKTEST\/20260102\/eu-west-2\/api\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it('sends ReadPublicCatalog unsigned', async () => {
    const f = fakeFetch(() => json(200, { Catalog: { Entries: [] }, ResponseContext: { RequestId: 'r' } }));
    await client(f.impl).readPublicCatalog();
    expect(f.sent[0]?.headers).toEqual({ 'Content-Type': 'application/json' });
  });
});

describe('outscale client: errors', () => {
  it('turns Errors[] into an OutscaleApiError with status, code, type, details, request id and Retry-After', async () => {
    const f = fakeFetch(() =>
      json(
        429,
        { Errors: [{ Code: '3', Type: 'RequestLimitExceeded', Details: 'slow down' }], ResponseContext: { RequestId: 'req-9' } },
        { 'retry-after': '4' },
      ),
    );
    const err = await client(f.impl)
      .readVms()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutscaleApiError);
    expect(err).toMatchObject({
      status: 429,
      code: '3',
      type: 'RequestLimitExceeded',
      details: 'slow down',
      requestId: 'req-9',
      retryAfterMs: 4000,
    });
    expect((err as Error).message).toBe('calling outscale ReadVms: RequestLimitExceeded (code 3): slow down [request req-9]');
  });

  it('keeps the status of a non-JSON error page', async () => {
    const f = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const err = (await client(f.impl)
      .readVms()
      .catch((e: unknown) => e)) as OutscaleApiError;
    expect([err.status, err.errors.length, isTransient(err)]).toEqual([502, 0, true]);
  });

  it('refuses a 200 whose body is not JSON', async () => {
    const f = fakeFetch(() => new Response('not json', { status: 200 }));
    expect(
      await client(f.impl)
        .readVms()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(OutscaleResponseError);
  });

  it('wraps a failed connection in a transient OutscaleTransportError', async () => {
    const impl = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const err = await client(impl)
      .readVms()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutscaleTransportError);
    expect([(err as OutscaleTransportError).timedOut, isTransient(err)]).toEqual([false, true]);
  });

  const error = (status: number, Code: string, Type: string) =>
    new OutscaleApiError({ action: 'X', status, errors: [{ Code, Type, Details: '' }] });
  it.each([
    [
      'no such vm',
      error(400, '5063', 'InvalidResource'),
      { notFound: true, quota: false, capacity: false, throttle: false, transient: false },
    ],
    [
      'too many cores',
      error(409, '10029', 'TooManyResources (QuotaExceded)'),
      { notFound: false, quota: true, capacity: false, throttle: false, transient: false },
    ],
    [
      'no capacity',
      error(409, '3001', 'InsufficientCapacity'),
      { notFound: false, quota: false, capacity: true, throttle: false, transient: false },
    ],
    [
      'throttled',
      error(429, '3', 'RequestLimitExceeded'),
      { notFound: false, quota: false, capacity: false, throttle: true, transient: true },
    ],
    ['internal', error(503, '2000', 'InternalError'), { notFound: false, quota: false, capacity: false, throttle: false, transient: true }],
    [
      'bad value',
      error(400, '4045', 'InvalidParameterValue'),
      { notFound: false, quota: false, capacity: false, throttle: false, transient: false },
    ],
  ])('classifies %s', (_name, err, expected) => {
    expect({
      notFound: isNotFound(err),
      quota: isQuota(err),
      capacity: isCapacity(err),
      throttle: isThrottle(err),
      transient: isTransient(err),
    }).toEqual(expected);
  });

  it('classifies nothing but its own errors', () => {
    for (const f of [isNotFound, isQuota, isCapacity, isThrottle, isTransient]) expect(f(new Error('x'))).toBe(false);
  });
});

describe('outscale client: pagination', () => {
  it('concatenates every page, following NextPageToken', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer(), { maxLength: 50 }), fc.integer({ min: 1, max: 7 }), async (items, size) => {
        const read = async (req: { NextPageToken?: string }) => {
          const offset = Number(req.NextPageToken ?? 0);
          const next = offset + size;
          return { Items: items.slice(offset, next), NextPageToken: next < items.length ? String(next) : undefined };
        };
        expect(await readAllPages('ReadX', {}, read, 'Items')).toEqual(items);
      }),
    );
  });

  it('fails as a whole when a page fails, and refuses to page forever', async () => {
    let calls = 0;
    const failing = async () => {
      calls += 1;
      if (calls === 2) throw new Error('page 2 failed');
      return { Items: [calls], NextPageToken: 't' };
    };
    await expect(readAllPages('ReadX', {}, failing, 'Items')).rejects.toThrow('page 2 failed');
    const endless = async () => ({ Items: [1], NextPageToken: 'again' });
    await expect(readAllPages('ReadX', {}, endless, 'Items', 5)).rejects.toBeInstanceOf(PaginationLoopError);
  });

  it('formats X-Amz-Date in ISO 8601 basic form', () => {
    expect(amzDate(Date.UTC(2026, 10, 22, 9, 8, 7, 654))).toBe('20261122T090807Z');
  });
});
