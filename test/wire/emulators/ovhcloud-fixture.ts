/**
 * Shared set-up for the OVHcloud emulator wire tests: the real `ovh` npm client (2.0.3, CommonJS, HTTPS
 * only) pointed at the emulator, trusting its CA through `https.globalAgent.options.ca` (the client has no
 * CA option), plus a raw signed HTTPS helper for what the client hides (headers, exact statuses).
 */
import https from 'node:https';
import { createRequire } from 'node:module';
import { signOvhRequest, type OvhCredential, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';

export interface OvhClient {
  requestPromised(method: string, path: string, params?: Record<string, unknown>): Promise<unknown>;
  apiTimeDiff: number | null;
}

export interface OvhClientError {
  error: number | string;
  message?: string;
}

type OvhFactory = (params: { appKey: string; appSecret: string; consumerKey?: string; host: string; port: number }) => OvhClient;

const require = createRequire(import.meta.url);
const ovhFactory = require('@ovhcloud/node-ovh') as OvhFactory;

export function ovhClient(emulator: OvhcloudEmulator, credential?: OvhCredential): OvhClient {
  return ovhFactory(emulator.clientOptions(credential));
}

/** A client without a consumer key: it sends neither X-Ovh-Consumer nor a signature. */
export function ovhClientWithoutConsumer(emulator: OvhcloudEmulator): OvhClient {
  const { consumerKey: _unused, ...rest } = emulator.clientOptions();
  return ovhFactory(rest);
}

/** Trusts the emulator's CA for every https request of this process; returns the undo. */
export function trustEmulatorCa(emulator: OvhcloudEmulator): () => void {
  const options = https.globalAgent.options;
  const previous = options.ca;
  options.ca = emulator.caPem;
  return () => {
    options.ca = previous;
  };
}

/** The rejection of a client call (the `ovh` client rejects with `{error: status, message}`). */
export async function rejectionOf(call: Promise<unknown>): Promise<OvhClientError> {
  try {
    await call;
  } catch (err) {
    return err as OvhClientError;
  }
  throw new Error('expected the call to be rejected');
}

export function kubePath(emulator: OvhcloudEmulator, rest = ''): string {
  return `/cloud/project/${emulator.cluster.serviceName}/kube/${emulator.cluster.kubeId}${rest}`;
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: unknown;
}

/** A signed (unless `sign: false`) HTTPS request with full control over headers, body and timestamp. */
export function rawRequest(
  emulator: OvhcloudEmulator,
  method: string,
  path: string,
  init: { body?: string; timestamp?: number; credential?: OvhCredential; signature?: string; sign?: boolean; nowSeconds?: number } = {},
): Promise<RawReply> {
  const credential = init.credential ?? emulator.credentials;
  const body = init.body ?? '';
  const fullPath = `/1.0${path}`;
  const timestamp = init.timestamp ?? init.nowSeconds ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (init.sign !== false) {
    headers['X-Ovh-Application'] = credential.applicationKey;
    headers['X-Ovh-Consumer'] = credential.consumerKey;
    headers['X-Ovh-Timestamp'] = String(timestamp);
    headers['X-Ovh-Signature'] =
      init.signature ??
      signOvhRequest({
        applicationSecret: credential.applicationSecret,
        consumerKey: credential.consumerKey,
        method,
        url: `https://127.0.0.1${fullPath}`,
        body,
        timestamp,
      });
  }
  if (body) headers['Content-Length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port: emulator.port, method, path: fullPath, headers, ca: emulator.caPem, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body || undefined);
  });
}

export const fullTemplate = (labels: Record<string, string> = {}) => ({
  metadata: { labels, annotations: {}, finalizers: [] },
  spec: { taints: [], unschedulable: false },
});
