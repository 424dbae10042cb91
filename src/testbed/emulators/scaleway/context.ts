/** What handlers receive: the emulator's shared state and the parsed request. */
import type { Clock } from '../../../util/clock.js';
import type { IdGenerator } from './ids.js';
import type { AvailabilityBoard, ZoneCatalog } from './products.js';
import type { ScalewayStore } from './store.js';
import type { Reply } from './http-io.js';

/** An API key the emulator accepts: only the secret key travels (header `x-auth-token`). */
export interface ScalewayCredential {
  accessKey: string;
  secretKey: string;
  projectId: string;
  organizationId: string;
}

/** Knobs tests may change while the emulator runs. */
export interface MutableSettings {
  /** A new server stays invisible to reads (404 on get, absent from lists) for this long. */
  consistencyDelayMs: number;
  /** Max servers per commercial type and project; absent = unlimited. */
  quotas: Map<string, number>;
  /** Root volume size in bytes when the create request gives none. */
  defaultRootVolumeBytes: number;
}

export interface EmulatorContext {
  store: ScalewayStore;
  ids: IdGenerator;
  clock: Clock;
  zones: Map<string, ZoneCatalog>;
  availability: AvailabilityBoard;
  settings: MutableSettings;
}

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  rawBody: string;
  zone: string;
  /** Undefined only on public routes (products). */
  credential?: ScalewayCredential;
  now: number;
}

export type Handler = (emu: EmulatorContext, req: RequestContext) => Reply;

/** The credential of an authenticated route (the router guarantees it). */
export function callerOf(req: RequestContext): ScalewayCredential {
  if (!req.credential) throw new Error('routing an authenticated route without a credential');
  return req.credential;
}
