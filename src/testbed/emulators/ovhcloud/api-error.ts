/**
 * OVH API errors as the API renders them: `{class, message}` for application errors (the class names the
 * HTTP family and the cause, e.g. `Client::NotFound::NodeNotFound`), and `{errorCode, httpCode, message}`
 * for the authentication gateway's refusals (bad application key, consumer key, signature, timestamp).
 * The OVH npm client keeps only the status and `message`.
 */

export class OvhApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? `ovh api error ${status}`));
    this.name = 'OvhApiError';
  }
}

const HTTP_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function gatewayError(status: number, errorCode: string, message: string): OvhApiError {
  return new OvhApiError(status, { errorCode, httpCode: `${status} ${HTTP_TEXT[status] ?? ''}`.trim(), message });
}

export const invalidApplicationKey = (): OvhApiError => gatewayError(403, 'INVALID_KEY', 'This application key is invalid');
export const invalidCredential = (): OvhApiError => gatewayError(403, 'INVALID_CREDENTIAL', 'This credential is not valid');
export const invalidSignature = (): OvhApiError => gatewayError(400, 'INVALID_SIGNATURE', 'Invalid signature');
export const queryOutOfTime = (): OvhApiError => gatewayError(400, 'QUERY_TIME_OUT', 'Query out of time');
export const notAuthenticated = (): OvhApiError => gatewayError(401, 'NOT_AUTHENTICATED', 'You must login first');

export const badRequest = (message: string): OvhApiError => new OvhApiError(400, { class: 'Client::BadRequest', message });
export const notFound = (kind: string, message: string): OvhApiError =>
  new OvhApiError(404, { class: kind ? `Client::NotFound::${kind}` : 'Client::NotFound', message });
export const conflict = (message: string): OvhApiError => new OvhApiError(409, { class: 'Client::Conflict', message });
export const forbidden = (message: string): OvhApiError => new OvhApiError(403, { class: 'Client::Forbidden', message });
export const invalidUrl = (): OvhApiError => new OvhApiError(404, { class: 'Client::NotFound', message: 'Got an invalid (or empty) URL' });
export const methodNotAllowed = (method: string, path: string): OvhApiError =>
  new OvhApiError(405, { class: 'Client::MethodNotAllowed', message: `Method ${method} is not allowed on ${path}` });

export function serverError(status: number): OvhApiError {
  const cause =
    status === 503 ? 'ServiceUnavailable' : status === 502 ? 'BadGateway' : status === 504 ? 'GatewayTimeout' : 'InternalServerError';
  return new OvhApiError(status, { class: `Server::${cause}`, message: status === 503 ? 'Service unavailable' : 'Internal server error' });
}

export function tooManyRequests(retryAfterSeconds: number): OvhApiError {
  return new OvhApiError(
    429,
    { class: 'Client::TooManyRequests', message: 'Too many requests, please retry later' },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
