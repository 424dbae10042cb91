/**
 * Calls a scheduler extender exactly as kube-scheduler's HTTPExtender does: `POST <urlPrefix>/<verb>` with
 * ExtenderArgs (capitalised Go field names: Pod, Nodes, NodeNames), any status but 200 is an error, and the
 * reply is read case-insensitively as Go's decoder would.
 */
import http from 'node:http';
import https from 'node:https';
import { type V1Node, type V1Pod } from '@kubernetes/client-node';
import { type ExtenderConfig } from './extender-config.js';

export const MaxExtenderPriority = 10;
export const MaxNodeScore = 100;
const defaultTimeoutMs = 5_000;

export class ExtenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExtenderError';
  }
}

export interface ExtenderFilterOutcome {
  feasible: string[];
  failed: Record<string, string>;
  unresolvable: Record<string, string>;
}

function field(object: unknown, name: string): unknown {
  if (typeof object !== 'object' || object === null) return undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

export class ExtenderClient {
  /**
   * Its own transport, as kube-scheduler builds one per extender: Node's shared agent lets its own options (a CA
   * another component trusts process-wide) override the request's, so the configured CA would not be the one checked.
   */
  private readonly agent: https.Agent | undefined;

  constructor(readonly config: ExtenderConfig) {
    const tls = config.tlsConfig;
    this.agent = config.urlPrefix.startsWith('https:')
      ? new https.Agent({
          keepAlive: true,
          ...(tls?.caData ? { ca: tls.caData } : {}),
          rejectUnauthorized: tls?.insecure !== true,
          ...(tls?.serverName ? { servername: tls.serverName } : {}),
        })
      : undefined;
  }

  /** IsInterested: with managedResources, only pods that request or limit one of them. */
  isInterested(pod: V1Pod): boolean {
    const managed = this.config.managedResources ?? [];
    if (managed.length === 0) return true;
    const names = new Set(managed.map((r) => r.name));
    return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].some((c) =>
      [...Object.keys(c.resources?.requests ?? {}), ...Object.keys(c.resources?.limits ?? {})].some((r) => names.has(r)),
    );
  }

  args(pod: V1Pod, nodes: readonly V1Node[]): Record<string, unknown> {
    const cacheCapable = this.config.nodeCacheCapable === true;
    return {
      Pod: pod,
      Nodes: cacheCapable ? null : { metadata: {}, items: nodes },
      NodeNames: cacheCapable ? nodes.map((n) => n.metadata?.name ?? '') : null,
    };
  }

  async filter(pod: V1Pod, nodes: readonly V1Node[]): Promise<ExtenderFilterOutcome> {
    const names = nodes.map((n) => n.metadata?.name ?? '');
    if (!this.config.filterVerb) return { feasible: names, failed: {}, unresolvable: {} };
    const result = await this.post(this.config.filterVerb, this.args(pod, nodes));
    const error = field(result, 'Error');
    if (typeof error === 'string' && error !== '') throw new ExtenderError(error);
    let feasible: string[];
    if (this.config.nodeCacheCapable) {
      feasible = ((field(result, 'NodeNames') as string[] | null) ?? []).map(String);
      const known = new Set(names);
      const unknown = feasible.find((n) => !known.has(n));
      if (unknown !== undefined)
        throw new ExtenderError(
          `extender "${this.config.urlPrefix}" claims a filtered node "${unknown}" which is not found in the input node list`,
        );
    } else {
      const list = field(result, 'Nodes') as { items?: V1Node[] } | null;
      feasible = (list?.items ?? []).map((n) => n.metadata?.name ?? '');
    }
    return {
      feasible,
      failed: (field(result, 'FailedNodes') as Record<string, string> | null) ?? {},
      unresolvable: (field(result, 'FailedAndUnresolvableNodes') as Record<string, string> | null) ?? {},
    };
  }

  /** Host → score × weight × (MaxNodeScore / MaxExtenderPriority), unclamped as upstream. */
  async prioritize(pod: V1Pod, nodes: readonly V1Node[]): Promise<Map<string, number>> {
    const scores = new Map<string, number>();
    if (!this.config.prioritizeVerb) return scores;
    const result = await this.post(this.config.prioritizeVerb, this.args(pod, nodes));
    const factor = (this.config.weight ?? 1) * (MaxNodeScore / MaxExtenderPriority);
    for (const entry of Array.isArray(result) ? result : []) {
      const host = String(field(entry, 'Host') ?? '');
      scores.set(host, Number(field(entry, 'Score') ?? 0) * factor);
    }
    return scores;
  }

  private post(verb: string, body: unknown): Promise<unknown> {
    const url = new URL(`${this.config.urlPrefix.replace(/\/+$/, '')}/${verb}`);
    const payload = JSON.stringify(body);
    const timeoutMs = this.config.httpTimeoutMs ?? defaultTimeoutMs;
    const tls = this.config.tlsConfig;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
          timeout: timeoutMs,
          // Go's transport: the given CA (else the system roots), verified unless explicitly insecure.
          ...(url.protocol === 'https:' && this.agent
            ? {
                agent: this.agent,
                ...(tls?.caData ? { ca: tls.caData } : {}),
                rejectUnauthorized: tls?.insecure !== true,
                ...(tls?.serverName ? { servername: tls.serverName } : {}),
              }
            : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (response.statusCode !== 200) {
              reject(new ExtenderError(`failed ${verb} with extender at URL ${url.href}, code ${String(response.statusCode)}`));
              return;
            }
            try {
              resolve(JSON.parse(text) as unknown);
            } catch (error) {
              reject(new ExtenderError(`decoding ${verb} reply from extender at URL ${url.href}: ${(error as Error).message}`));
            }
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () =>
        request.destroy(new ExtenderError(`calling extender at URL ${url.href}: timed out after ${timeoutMs}ms`)),
      );
      request.on('error', (error) =>
        reject(
          error instanceof ExtenderError
            ? error
            : new ExtenderError(`calling extender at URL ${url.href}: ${error.message}`, { cause: error }),
        ),
      );
      request.end(payload);
    });
  }
}
