/**
 * Who wrote what, and when: kube-apiserver's static token authentication (`--token-auth-file`) and its audit
 * log at the Metadata level, reduced to what the tests read. Each replica of an operator can be given its own
 * token, so every write the server received is attributed to the process that sent it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../util/clock.js';
import type { UserInfo } from './admission/admission-types.js';
import { adminUser } from './write-context.js';

/** One request that could change something (every verb but get, list and watch). */
export interface AuditRecord {
  /** Server clock (epoch ms) when the request arrived. */
  receivedAt: number;
  /** HTTP method. */
  method: string;
  /** The request path, without the query. */
  path: string;
  username: string;
  /** Status code of the answer; 0 while it is being handled or when the connection died first. */
  code: number;
}

export type AuditListener = (record: AuditRecord) => void;

export class AuditLog {
  private readonly kept: AuditRecord[] = [];
  private readonly listeners = new Set<AuditListener>();

  constructor(
    private readonly clock: Clock,
    private readonly tokens: ReadonlyMap<string, UserInfo> = new Map(),
  ) {}

  /** The user a request's bearer token names; any other request is the administrator, as the kubeconfigs have it. */
  authenticate(req: IncomingMessage): UserInfo {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    return this.tokens.get(token) ?? adminUser;
  }

  /** Records the request if it could write; its code is filled in once the answer is sent. */
  observe(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
    const record: AuditRecord = {
      receivedAt: this.clock.now(),
      method,
      path: (req.url ?? '/').split('?')[0] ?? '/',
      username: this.authenticate(req).username,
      code: 0,
    };
    this.kept.push(record);
    res.once('finish', () => {
      record.code = res.statusCode;
    });
    for (const listener of this.listeners) listener(record);
  }

  records(): readonly AuditRecord[] {
    return this.kept;
  }

  /** Called at the arrival of each write, before the server acts; returns the unsubscribe function. */
  subscribe(listener: AuditListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
