/**
 * What the cloud said about each NodeClass, so that the status controller's short period is not a loop of
 * cloud calls: a class is asked again when what is asked changes (`version`: its generation, the GPUs its
 * NodePools ask for), after `refreshMs`, and after a failed read only once its backoff (doubling, capped) has passed.
 */
import { backoffCeiling } from '../../util/backoff.js';
import type { NodeClassCloudFacts } from '../../domain/nodeclass/cloud-facts.js';
import type { Clock } from '../../util/clock.js';

export type ReadFacts = (kind: string, name: string) => Promise<NodeClassCloudFacts | undefined>;

export interface CloudFactsTiming {
  refreshMs: number;
  backoffMs: number;
  maxBackoffMs: number;
}

interface Entry {
  version: string;
  facts?: NodeClassCloudFacts | undefined;
  readAt: number;
  failures: number;
  retryAt: number;
}

/** The class's facts; 'unknown' when they could not be read (the caller leaves the class as it is). */
export type FactsAnswer = NodeClassCloudFacts | undefined | 'unknown';

export class CloudFactsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly read: ReadFacts,
    private readonly clock: Clock,
    private readonly timing: CloudFactsTiming,
  ) {}

  async get(kind: string, name: string, version: string, onError: (error: unknown) => void): Promise<FactsAnswer> {
    const key = `${kind}/${name}`;
    const now = this.clock.now();
    const known = this.entries.get(key);
    const current = known?.version === version ? known : undefined;
    if (current && current.failures === 0 && now - current.readAt < this.timing.refreshMs) return current.facts;
    if (current && current.failures > 0 && now < current.retryAt) return 'unknown';
    try {
      const facts = await this.read(kind, name);
      this.entries.set(key, { version, facts, readAt: now, failures: 0, retryAt: now });
      return facts;
    } catch (error) {
      onError(error);
      const failures = (current?.failures ?? 0) + 1;
      const wait = backoffCeiling({ baseDelayMs: this.timing.backoffMs, maxDelayMs: this.timing.maxBackoffMs }, failures - 1);
      this.entries.set(key, { version, readAt: now, failures, retryAt: now + wait });
      return 'unknown';
    }
  }

  /** Drops the classes that no longer exist. */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (!keys.has(key)) this.entries.delete(key);
  }
}
