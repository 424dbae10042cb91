/**
 * The errors the emulated OAPI answers, in the real shape:
 * `{"Errors":[{"Code","Type","Details"}],"ResponseContext":{"RequestId"}}` with a 4xx/5xx status.
 * Codes of the families the reference documents (osc-sdk-python `gateway_errors.yaml`): 4xxx
 * InvalidParameterValue, 5xxx InvalidResource (5063 no-such-vm, 5024 no-such-instance-type), 6xxx
 * InvalidState (6006), 7000 MissingParameter, 10xxx TooManyResources (10010 instances, 10029 cores,
 * 10030 gpu). Codes the reference does not give (auth, throttling, capacity, internal) are the emulator's
 * choice, kept stable: 1 AccessDenied, 3 RequestLimitExceeded, 3001 InsufficientCapacity, 2000 InternalError.
 */

export class OscWireError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly type: string,
    readonly details: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${type} (${code}): ${details}`);
    this.name = 'OscWireError';
  }
}

const QUOTA_TYPE = 'TooManyResources (QuotaExceded)';

export const wireErrors = {
  accessDenied: (details: string) => new OscWireError(401, '1', 'AccessDenied', details),
  throttled: (retryAfterSeconds: number) =>
    new OscWireError(429, '3', 'RequestLimitExceeded', 'too many requests, retry later', { 'Retry-After': String(retryAfterSeconds) }),
  internal: (status: number) => new OscWireError(status, '2000', 'InternalError', 'the server encountered an internal error'),
  unknownAction: (action: string) =>
    new OscWireError(404, '12000', 'InvalidAction', `the action ${action} is not valid for this web service`),
  malformedBody: (reason: string) =>
    new OscWireError(400, '4019', 'InvalidParameterValue', `the request body is not valid json: ${reason}`),
  missing: (field: string) => new OscWireError(400, '7000', 'MissingParameter', `Parameter: ${field}`),
  invalidValue: (field: string, value: unknown, accepted: string) =>
    new OscWireError(400, '4045', 'InvalidParameterValue', `invalid value ${JSON.stringify(value)} for ${field}; accepted: ${accepted}`),
  notFound: (code: string, what: string, id: string) => new OscWireError(400, code, 'InvalidResource', `the ${what} ${id} does not exist`),
  invalidState: (details: string) => new OscWireError(409, '6006', 'InvalidState', details),
  conflict: (details: string) => new OscWireError(409, '9000', 'ResourceConflict', details),
  quota: (code: '10010' | '10029' | '10030', details: string) => new OscWireError(409, code, QUOTA_TYPE, details),
  capacity: (vmType: string, subregion: string) =>
    new OscWireError(409, '3001', 'InsufficientCapacity', `insufficient capacity for ${vmType} in ${subregion}`),
};

/** 5xxx codes per resource kind. */
export const NotFoundCodes = {
  vm: '5063',
  vmType: '5024',
  image: '5023',
  subnet: '5057',
  securityGroup: '5020',
  subregion: '5009',
  keypair: '5035',
  flexibleGpu: '5081',
  flexibleGpuModel: '5082',
  resource: '5045',
} as const;

export function errorBody(err: OscWireError, requestId: string): string {
  return JSON.stringify({ Errors: [{ Code: err.code, Type: err.type, Details: err.details }], ResponseContext: { RequestId: requestId } });
}
