/**
 * Watch delivery delay per resource: a loaded kube-apiserver, a slow network or a client that reads its watch
 * late all show as events that arrive some time after the write that caused them. Each event of a resource
 * waits a random time in [minMs, maxMs]; now and then a burst starts, during which every event of the resource
 * waits up to `burstDelayMs` more (a stalled watch cache). Events of one watch stay in order, as on a real
 * connection. Seeded, so a failing run replays; all time is the server's clock.
 */
import { seededRandom } from '../../../util/seeded-random.js';

export interface WatchDelayProfile {
  /** Least delay of every event, ms. */
  minMs: number;
  /** Most delay outside a burst, ms. */
  maxMs: number;
  /** Chance per event that a burst starts (0 by default). */
  burstChance?: number;
  /** How long a burst lasts, ms. */
  burstMs?: number;
  /** Most extra delay of an event inside a burst, ms. */
  burstDelayMs?: number;
}

export interface WatchDelaySettings {
  seed?: number;
  /** By resource plural (`nodeclaims`, `pods`, …); `*` applies to every resource without its own entry. */
  profiles?: Readonly<Record<string, WatchDelayProfile>>;
}

export class WatchDelays {
  private random: () => number;
  private readonly profiles = new Map<string, WatchDelayProfile>();
  private readonly burstUntil = new Map<string, number>();

  constructor(settings: WatchDelaySettings = {}) {
    this.random = seededRandom(settings.seed ?? 1);
    for (const [resource, profile] of Object.entries(settings.profiles ?? {})) this.set(resource, profile);
  }

  /** Sets (or, with undefined, removes) the delay of one resource's watch events. */
  set(resource: string, profile: WatchDelayProfile | undefined): void {
    if (profile === undefined) {
      this.profiles.delete(resource);
      return;
    }
    checkProfile(resource, profile);
    this.profiles.set(resource, profile);
  }

  /** No delay on any resource from now on. */
  clear(): void {
    this.profiles.clear();
    this.burstUntil.clear();
  }

  /** Restarts the random sequence (a run replays from its seed). */
  reseed(seed: number): void {
    this.random = seededRandom(seed);
  }

  /** How long the next event of `resource` waits, at clock time `now`. */
  delayFor(resource: string, now: number): number {
    const profile = this.profiles.get(resource) ?? this.profiles.get('*');
    if (!profile) return 0;
    let delay = profile.minMs + this.random() * (profile.maxMs - profile.minMs);
    if ((this.burstUntil.get(resource) ?? 0) <= now && this.random() < (profile.burstChance ?? 0))
      this.burstUntil.set(resource, now + (profile.burstMs ?? 0));
    if ((this.burstUntil.get(resource) ?? 0) > now) delay += this.random() * (profile.burstDelayMs ?? 0);
    return Math.round(delay);
  }
}

function checkProfile(resource: string, p: WatchDelayProfile): void {
  const fields: [string, number | undefined][] = [
    ['minMs', p.minMs],
    ['maxMs', p.maxMs],
    ['burstChance', p.burstChance],
    ['burstMs', p.burstMs],
    ['burstDelayMs', p.burstDelayMs],
  ];
  for (const [name, value] of fields)
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new Error(`watch delay of ${resource}: ${name} is ${value}; a finite number ≥ 0 is accepted`);
  if (p.maxMs < p.minMs) throw new Error(`watch delay of ${resource}: maxMs ${p.maxMs} is below minMs ${p.minMs}`);
  if ((p.burstChance ?? 0) > 1) throw new Error(`watch delay of ${resource}: burstChance ${p.burstChance} is above 1`);
}
