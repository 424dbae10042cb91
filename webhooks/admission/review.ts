/**
 * AdmissionReview admission.k8s.io/v1 on the wire: decoding a request (every problem a ReviewError with
 * a message for a 400) and encoding the response exactly as the API server checks it.
 */
import type { AdmissionOperation, KubeObject } from '../../src/domain/admission/index.js';
import type { JsonPatchOperation } from '../../src/util/json-patch.js';

export const ReviewApiVersion = 'admission.k8s.io/v1';
export const ReviewKind = 'AdmissionReview';
const operations: readonly AdmissionOperation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export class ReviewError extends Error {
  constructor(message: string) {
    super(`decoding AdmissionReview: ${message}`);
    this.name = 'ReviewError';
  }
}

export interface DecodedReview {
  uid: string;
  operation: AdmissionOperation;
  /** `request.kind.kind` (the object's own kind when absent). */
  kind: string;
  object: KubeObject;
  oldObject?: KubeObject;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function decodeReview(body: unknown): DecodedReview {
  if (!isRecord(body)) throw new ReviewError('the body must be a JSON object');
  if (body.apiVersion !== ReviewApiVersion || body.kind !== ReviewKind) {
    throw new ReviewError(
      `apiVersion/kind ${JSON.stringify(`${String(body.apiVersion)}/${String(body.kind)}`)} is not supported; accepted: "${ReviewApiVersion}/${ReviewKind}"`,
    );
  }
  const request = body.request;
  if (!isRecord(request)) throw new ReviewError('request is required');
  if (typeof request.uid !== 'string' || request.uid === '') throw new ReviewError('request.uid is required');
  const operation = request.operation as AdmissionOperation;
  if (!operations.includes(operation))
    throw new ReviewError(`request.operation ${JSON.stringify(request.operation)} is not supported; accepted: ${operations.join(', ')}`);
  const object = request.object ?? (operation === 'DELETE' ? request.oldObject : undefined);
  if (!isRecord(object)) throw new ReviewError('request.object must be an object');
  const kind =
    isRecord(request.kind) && typeof request.kind.kind === 'string'
      ? request.kind.kind
      : typeof object.kind === 'string'
        ? object.kind
        : '';
  return {
    uid: request.uid,
    operation,
    kind,
    object: { ...object, kind: typeof object.kind === 'string' ? object.kind : kind },
    oldObject: isRecord(request.oldObject) ? request.oldObject : undefined,
  };
}

export interface ReviewResponse {
  uid: string;
  allowed: boolean;
  message?: string;
  warnings?: string[];
  patch?: JsonPatchOperation[];
}

/** API servers cut warnings past 256 runes; keep them whole-ish and readable. */
function trimWarning(text: string): string {
  return text.length <= 256 ? text : `${text.slice(0, 253)}...`;
}

export function encodeReview(response: ReviewResponse): unknown {
  const body: Record<string, unknown> = { uid: response.uid, allowed: response.allowed };
  if (!response.allowed) body.status = { code: 403, reason: 'Forbidden', message: response.message ?? '' };
  if (response.warnings && response.warnings.length > 0) body.warnings = response.warnings.map(trimWarning);
  if (response.patch && response.patch.length > 0) {
    body.patchType = 'JSONPatch';
    body.patch = Buffer.from(JSON.stringify(response.patch)).toString('base64');
  }
  return { apiVersion: ReviewApiVersion, kind: ReviewKind, response: body };
}
