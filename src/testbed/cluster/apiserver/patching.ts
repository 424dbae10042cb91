/** Maps a PATCH's Content-Type to a patch strategy and applies it to the stored object. */
import { applyJsonPatch, applyMergePatch, type JsonValue, JsonPatchError, parseJsonPatch } from '../../../util/json-patch.js';
import { ApiError, badRequest, unsupportedMediaType } from './errors.js';
import { type KubeObject, asJson } from './kube-object.js';
import { type ResourceType } from './resource-type.js';
import { applyStrategicMergePatch } from './strategic-merge.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const mediaTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

export function patchTypeOf(contentType: string | undefined, type: ResourceType): PatchType {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const patchType = mediaTypes[media];
  const accepted = type.strategicMerge
    ? [
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/apply-patch+yaml',
        'application/strategic-merge-patch+json',
      ]
    : ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
  if (!patchType || (patchType === 'strategic' && !type.strategicMerge)) throw unsupportedMediaType(media, accepted);
  return patchType;
}

export function applyPatch(type: ResourceType, current: KubeObject, patchType: PatchType, patch: JsonValue): KubeObject {
  const doc = asJson(current);
  let result: JsonValue;
  try {
    switch (patchType) {
      case 'json':
        result = applyJsonPatch(doc, parseJsonPatch(patch));
        break;
      case 'merge':
      case 'apply':
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
          throw badRequest('error decoding patch: a merge patch must be a JSON object');
        result = applyMergePatch(doc, patch);
        break;
      case 'strategic':
        result = applyStrategicMergePatch(doc, patch, type.kind);
        break;
    }
  } catch (err) {
    if (err instanceof JsonPatchError) {
      // kube-apiserver answers an unappliable JSON patch with 422 for test/path failures, 400 for bad documents.
      throw err.operationIndex === undefined
        ? badRequest(err.message)
        : new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${err.message}`);
    }
    throw err;
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw badRequest('error applying patch: the result is not an object');
  const obj = result as unknown as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj;
}
