/**
 * The thin signed Outscale API client (no Outscale SDK is installable): every call is a SigV4-signed POST of
 * PascalCase JSON to `<endpoint>/api/v1/<Action>`. Errors become `OutscaleApiError` (from `Errors[]`) or
 * `OutscaleTransportError` (no answer). Retries are the cloud provider layer's business, not this client's.
 */
import { SystemClock, type Clock } from '../../util/clock.js';
import type * as T from './api-types.js';
import { OutscaleApiError, OutscaleResponseError, OutscaleTransportError } from './errors.js';
import { readAllPages } from './pagination.js';
import { signedHeaders } from './signing.js';

export interface OutscaleClientOptions {
  /** `https://api.eu-west-2.outscale.com` (a trailing `/api/v1` is accepted). */
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Calls the API accepts without a signature. */
const UNSIGNED_ACTIONS = new Set(['ReadPublicCatalog', 'ReadFlexibleGpuCatalog']);

export class OutscaleClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(private readonly options: OutscaleClientOptions) {
    this.base = options.endpoint.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.clock = options.clock ?? new SystemClock();
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  get region(): string {
    return this.options.region;
  }

  /** One API call. Exposed for calls this client has no typed method for. */
  async call<Res>(action: string, request: object, options: CallOptions = {}): Promise<Res> {
    const url = new URL(`${this.base}/api/v1/${action}`);
    const body = JSON.stringify(request);
    const headers = UNSIGNED_ACTIONS.has(action)
      ? { 'Content-Type': 'application/json' }
      : signedHeaders({
          url,
          body,
          region: this.options.region,
          accessKey: this.options.accessKey,
          secretKey: this.options.secretKey,
          now: this.clock.now(),
        });
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, { method: 'POST', headers, body, signal });
      text = await response.text();
    } catch (err) {
      throw new OutscaleTransportError(action, err, timeout.aborted);
    }
    return parseResponse<Res>(action, response, text);
  }

  /**
   * A call whose answer must carry the list `field`: a 200 without it (`{}`, a proxy's body) is an
   * OutscaleResponseError, never read as an empty list.
   */
  private async callFor<Res>(action: string, request: object, options: CallOptions | undefined, field: keyof Res & string): Promise<Res> {
    const response = await this.call<Res>(action, request, options);
    if (!Array.isArray(response[field])) throw new OutscaleResponseError(action, 200, `the answer has no ${field} list`);
    return response;
  }

  createVms(request: T.CreateVmsRequest, options?: CallOptions): Promise<T.CreateVmsResponse> {
    return this.callFor('CreateVms', request, options, 'Vms');
  }

  readVms(request: T.ReadVmsRequest = {}, options?: CallOptions): Promise<T.ReadVmsResponse> {
    return this.callFor('ReadVms', request, options, 'Vms');
  }

  /** Every page of ReadVms; fails as a whole when any page fails. */
  readAllVms(request: T.ReadVmsRequest = {}, options?: CallOptions): Promise<T.Vm[]> {
    return readAllPages('ReadVms', request, (r: T.ReadVmsRequest) => this.readVms(r, options), 'Vms');
  }

  deleteVms(request: T.VmIdsRequest, options?: CallOptions): Promise<T.VmStatesResponse> {
    return this.call('DeleteVms', request, options);
  }

  startVms(request: T.VmIdsRequest, options?: CallOptions): Promise<T.VmStatesResponse> {
    return this.call('StartVms', request, options);
  }

  stopVms(request: T.StopVmsRequest, options?: CallOptions): Promise<T.VmStatesResponse> {
    return this.call('StopVms', request, options);
  }

  createTags(request: T.CreateTagsRequest, options?: CallOptions): Promise<T.WithResponseContext> {
    return this.call('CreateTags', request, options);
  }

  deleteTags(request: T.DeleteTagsRequest, options?: CallOptions): Promise<T.WithResponseContext> {
    return this.call('DeleteTags', request, options);
  }

  readTags(request: T.ReadTagsRequest = {}, options?: CallOptions): Promise<T.ReadTagsResponse> {
    return this.callFor('ReadTags', request, options, 'Tags');
  }

  /** Every page of ReadTags; fails as a whole when any page fails. */
  readAllTags(request: T.ReadTagsRequest = {}, options?: CallOptions): Promise<T.Tag[]> {
    return readAllPages('ReadTags', request, (r: T.ReadTagsRequest) => this.readTags(r, options), 'Tags');
  }

  readVmTypes(request: T.ReadVmTypesRequest = {}, options?: CallOptions): Promise<T.ReadVmTypesResponse> {
    return this.callFor('ReadVmTypes', request, options, 'VmTypes');
  }

  readAllVmTypes(request: T.ReadVmTypesRequest = {}, options?: CallOptions): Promise<T.VmType[]> {
    return readAllPages('ReadVmTypes', request, (r: T.ReadVmTypesRequest) => this.readVmTypes(r, options), 'VmTypes');
  }

  readRegions(options?: CallOptions): Promise<T.ReadRegionsResponse> {
    return this.callFor('ReadRegions', {}, options, 'Regions');
  }

  readSubregions(request: T.ReadSubregionsRequest = {}, options?: CallOptions): Promise<T.ReadSubregionsResponse> {
    return this.callFor('ReadSubregions', request, options, 'Subregions');
  }

  readPublicCatalog(options?: CallOptions): Promise<T.ReadPublicCatalogResponse> {
    return this.call('ReadPublicCatalog', {}, options);
  }

  readImages(request: T.ReadImagesRequest = {}, options?: CallOptions): Promise<T.ReadImagesResponse> {
    return this.callFor('ReadImages', request, options, 'Images');
  }

  readSubnets(request: T.ReadSubnetsRequest = {}, options?: CallOptions): Promise<T.ReadSubnetsResponse> {
    return this.callFor('ReadSubnets', request, options, 'Subnets');
  }

  readSecurityGroups(request: T.ReadSecurityGroupsRequest = {}, options?: CallOptions): Promise<T.ReadSecurityGroupsResponse> {
    return this.callFor('ReadSecurityGroups', request, options, 'SecurityGroups');
  }

  createFlexibleGpu(request: T.CreateFlexibleGpuRequest, options?: CallOptions): Promise<T.FlexibleGpuResponse> {
    return this.call('CreateFlexibleGpu', request, options);
  }

  linkFlexibleGpu(request: T.LinkFlexibleGpuRequest, options?: CallOptions): Promise<T.WithResponseContext> {
    return this.call('LinkFlexibleGpu', request, options);
  }

  unlinkFlexibleGpu(request: T.FlexibleGpuIdRequest, options?: CallOptions): Promise<T.WithResponseContext> {
    return this.call('UnlinkFlexibleGpu', request, options);
  }

  deleteFlexibleGpu(request: T.FlexibleGpuIdRequest, options?: CallOptions): Promise<T.WithResponseContext> {
    return this.call('DeleteFlexibleGpu', request, options);
  }

  readFlexibleGpus(request: T.ReadFlexibleGpusRequest = {}, options?: CallOptions): Promise<T.ReadFlexibleGpusResponse> {
    return this.callFor('ReadFlexibleGpus', request, options, 'FlexibleGpus');
  }

  readFlexibleGpuCatalog(options?: CallOptions): Promise<T.ReadFlexibleGpuCatalogResponse> {
    return this.callFor('ReadFlexibleGpuCatalog', {}, options, 'FlexibleGpuCatalog');
  }
}

export function createOutscaleClient(options: OutscaleClientOptions): OutscaleClient {
  return new OutscaleClient(options);
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseResponse<Res>(action: string, response: Response, text: string): Res {
  const body = parseJson(text) as Partial<T.ErrorResponse> | undefined;
  if (!response.ok) {
    throw new OutscaleApiError({
      action,
      status: response.status,
      errors: Array.isArray(body?.Errors) ? body.Errors : [],
      requestId: body?.ResponseContext?.RequestId,
      retryAfterMs: retryAfterMs(response),
    });
  }
  if (text === '') throw new OutscaleResponseError(action, response.status, 'the body is empty');
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new OutscaleResponseError(action, response.status, 'the body is not a json object');
  return body as Res;
}
