/** POSTs one AdmissionReview over HTTPS, verifying the server with the webhook's caBundle, under its timeout. */
import https from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';

export class WebhookCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

export interface WebhookCall {
  url: string;
  caBundle?: string;
  /** The name the certificate must carry (and the TLS SNI); default: the URL's host. */
  serverName?: string;
  timeoutSeconds: number;
  body: unknown;
}

/** The URL as kube-apiserver writes it in errors: with the `?timeout=Ns` it appends. */
export function displayUrl(url: string, timeoutSeconds: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}timeout=${timeoutSeconds}s`;
}

export function postAdmissionReview(call: WebhookCall): Promise<unknown> {
  const shown = displayUrl(call.url, call.timeoutSeconds);
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(shown);
    } catch {
      reject(new WebhookCallError(`parsing url "${call.url}": invalid URL`));
      return;
    }
    if (target.protocol !== 'https:') {
      reject(new WebhookCallError(`Post "${shown}": webhook url must use the https scheme`));
      return;
    }
    const payload = Buffer.from(JSON.stringify(call.body));
    const ca = call.caBundle ? Buffer.from(call.caBundle, 'base64').toString('utf8') : undefined;
    const req = https.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': payload.length },
        ...(ca ? { ca } : {}),
        ...(call.serverName
          ? {
              servername: call.serverName,
              checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(call.serverName as string, cert),
            }
          : {}),
        agent: false,
        timeout: call.timeoutSeconds * 1000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new WebhookCallError(`Post "${shown}": ${err.message}`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
            reject(new WebhookCallError(`an error on the server ("${text.slice(0, 200)}") has prevented the request from succeeding`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new WebhookCallError(`decoding response: the body is not JSON`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new WebhookCallError(`Post "${shown}": context deadline exceeded`)));
    req.on('error', (err) => reject(err instanceof WebhookCallError ? err : new WebhookCallError(`Post "${shown}": ${err.message}`)));
    req.end(payload);
  });
}
