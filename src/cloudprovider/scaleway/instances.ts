/**
 * Servers on the Instance API for one Scaleway account: find by tags, list every page, launch (created
 * stopped → user data → private network → poweron), resume a half-finished launch, and terminate without
 * leaking the root Block volume. Transient failures are retried here; every other error is the answer.
 */
import { findInChain, IncompleteResponseError, isNodeClaimNotFoundError, isTransientCloudError, TransientCloudError } from '../errors.js';
import { retryTransient, type RetryOptions } from '../retry.js';
import type { CreateServerRequest, ScalewayApi, ScalewayServer } from './api.js';
import { ScalewayApiError } from './errors.js';

/** The user data key cloud-init reads. */
export const CloudInitKey = 'cloud-init';
/** Servers per listing page: the API's maximum, so a 1,000-node cluster lists in 10 calls per zone. */
export const ListPageSize = 100;

/** The name of a NodeClaim's root Block volume: found again by name after the server is gone. */
export function rootVolumeName(nodeClaim: { name: string; uid?: string }): string {
  return `karpenter-root-${nodeClaim.uid ?? nodeClaim.name}`;
}

/**
 * A create that may have made a server this process cannot find yet (no answer, a 5xx other than 503, an
 * unreadable 2xx, and no listing showing it): sending it again could make a second server, so it is not retried here.
 */
export class CreateOutcomeUnknownError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CreateOutcomeUnknownError';
  }
}

/**
 * Whether a failed create may still have made the server. Only an answer that says the request was turned
 * away proves nothing was made: a 4xx, a 429, a 503 (the service did not take the request). No answer, another
 * 5xx, or a 2xx whose body was lost leave it open.
 */
export function mayHaveCreated(error: unknown): boolean {
  const answered = findInChain(error, ScalewayApiError)?.failure.status;
  if (answered === undefined) return true;
  return !(answered === 503 || (answered >= 400 && answered < 500));
}

export interface LaunchSteps {
  userData: (server: ScalewayServer) => string;
  privateNetworkId?: string;
}

export class ScalewayInstances {
  constructor(
    private readonly api: ScalewayApi,
    private readonly retry: RetryOptions,
    private readonly listPageSize = ListPageSize,
  ) {}

  /** The image `image` (label or UUID) resolves to in the zone; undefined when there is none. */
  findImage(zone: string, image: string): Promise<{ id: string; name?: string } | undefined> {
    return this.withRetry(`resolving image ${image} in ${zone}`, () => this.api.findImage(zone, image));
  }

  private withRetry<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return retryTransient(operation, fn, this.retry);
  }

  /**
   * For a server this process just created: reads may not see it yet (eventual consistency), so a 404 is
   * retried like a 503 instead of meaning "gone".
   */
  private async withRetryFresh<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await retryTransient(operation, fn, {
        ...this.retry,
        isRetryable: (e) => isTransientCloudError(e) || isNodeClaimNotFoundError(e),
      });
    } catch (error) {
      // Still invisible: "not yet", not "gone" — the caller must not take it for a missing instance.
      if (isNodeClaimNotFoundError(error))
        throw new TransientCloudError(`${operation}: the new server is not visible yet`, { cause: error });
      throw error;
    }
  }

  /** Every server of the zone carrying all `tags`; throws when any page cannot be read (never partial). */
  async listZone(zone: string, tags: readonly string[]): Promise<ScalewayServer[]> {
    const servers: ScalewayServer[] = [];
    for (let page = 1; ; page += 1) {
      const result = await this.withRetry(`listing servers in ${zone}`, () =>
        this.api.listServersPage(zone, tags, page, this.listPageSize),
      );
      servers.push(...result.servers);
      if (servers.length >= result.totalCount) return servers;
      if (result.servers.length === 0) {
        throw new IncompleteResponseError(
          `listing servers in ${zone}: page ${page} is empty after ${servers.length} of the ${result.totalCount} servers announced`,
        );
      }
    }
  }

  /** Every server of these zones carrying all `tags`; throws when any zone or page fails. */
  async list(zones: readonly string[], tags: readonly string[]): Promise<ScalewayServer[]> {
    const perZone = await Promise.all(zones.map((zone) => this.listZone(zone, tags)));
    return perZone.flat();
  }

  get(zone: string, id: string): Promise<ScalewayServer> {
    return this.withRetry(`getting server ${zone}/${id}`, () => this.api.getServer(zone, id));
  }

  /**
   * Creates the server, stopped. A create that failed transiently may still have made it, so it is looked for by
   * `lookupTags` first; a refused create is sent again, one that may have made a server the listing does not
   * show is not (CreateOutcomeUnknownError): the caller decides when the listing can be trusted.
   */
  async createStopped(request: CreateServerRequest, lookupTags: readonly string[]): Promise<ScalewayServer> {
    const isRetryable = (e: unknown): boolean => !(e instanceof CreateOutcomeUnknownError) && isTransientCloudError(e);
    return retryTransient(
      `creating server for ${request.name}`,
      async () => {
        try {
          return await this.api.createServer(request);
        } catch (error) {
          if (!isTransientCloudError(error)) throw error;
          const existing = await this.findAfterFailedCreate(request, lookupTags, error);
          if (existing) return existing;
          if (mayHaveCreated(error))
            throw new CreateOutcomeUnknownError(
              `creating server for ${request.name}: no answer says whether it was made, and the listing does not show it`,
              { cause: error },
            );
          throw error;
        }
      },
      { ...this.retry, isRetryable },
    );
  }

  private async findAfterFailedCreate(
    request: CreateServerRequest,
    lookupTags: readonly string[],
    createError: unknown,
  ): Promise<ScalewayServer | undefined> {
    try {
      const [existing] = await this.listZone(request.zone, lookupTags);
      return existing;
    } catch (error) {
      if (mayHaveCreated(createError))
        throw new CreateOutcomeUnknownError(`creating server for ${request.name}: no answer, and the listing failed too`, { cause: error });
      throw error;
    }
  }

  /**
   * Finishes a launch from whatever step it stopped at: user data set, private network attached, powered
   * on. Safe to call on a server that is already starting or running.
   */
  async finishLaunch(server: ScalewayServer, steps: LaunchSteps, fresh = false): Promise<ScalewayServer> {
    const { zone, id } = server;
    const retry = fresh ? this.withRetryFresh.bind(this) : this.withRetry.bind(this);
    const keys = await retry(`listing user data of ${zone}/${id}`, () => this.api.listUserDataKeys(zone, id));
    if (!keys.includes(CloudInitKey)) {
      const content = steps.userData(server);
      await retry(`setting user data of ${zone}/${id}`, () => this.api.setUserData(zone, id, CloudInitKey, content));
    }
    const network = steps.privateNetworkId;
    if (network && !server.privateNetworkIds.includes(network)) {
      await retry(`attaching ${zone}/${id} to ${network}`, () => this.api.attachPrivateNetwork(zone, id, network));
    }
    if (server.state === 'stopped' || server.state === 'stopped in place') {
      await retry(`powering on ${zone}/${id}`, () => this.api.powerOn(zone, id, server.commercialType));
    }
    return retry(`getting server ${zone}/${id}`, () => this.api.getServer(zone, id));
  }

  /** A server this process created, read back while reads may still miss it. */
  getFresh(zone: string, id: string): Promise<ScalewayServer> {
    return this.withRetryFresh(`getting server ${zone}/${id}`, () => this.api.getServer(zone, id));
  }

  /**
   * One step of termination, by the server's state: running → terminate; stopped → delete (and its Block
   * volumes, which delete only detaches); transient states → nothing yet. Resolves while under way.
   */
  async terminateStep(server: ScalewayServer): Promise<void> {
    const { zone, id } = server;
    if (server.state === 'running') {
      await this.withRetry(`terminating ${zone}/${id}`, () => this.api.terminate(zone, id));
      return;
    }
    if (server.state === 'stopped' || server.state === 'stopped in place') {
      await this.withRetry(`deleting ${zone}/${id}`, () => this.api.deleteServer(zone, id));
      for (const volume of server.volumes.filter((v) => v.volumeType === 'sbs_volume')) await this.deleteVolume(zone, volume.id);
    }
  }

  /** Deletes the detached Block volumes named `name` (left behind by terminate, which only detaches them). */
  async deleteDetachedVolumes(zones: readonly string[], name: string): Promise<number> {
    let deleted = 0;
    for (const zone of zones) {
      const volumes = await this.withRetry(`listing volumes ${name} in ${zone}`, () => this.api.listBlockVolumes(zone, name));
      for (const volume of volumes.filter((v) => v.name === name && v.status === 'available')) {
        await this.deleteVolume(zone, volume.id);
        deleted += 1;
      }
    }
    return deleted;
  }

  private async deleteVolume(zone: string, volumeId: string): Promise<void> {
    try {
      await this.withRetry(`deleting volume ${zone}/${volumeId}`, () => this.api.deleteBlockVolume(zone, volumeId));
    } catch (error) {
      if (!isNodeClaimNotFoundError(error)) throw error;
    }
  }
}
