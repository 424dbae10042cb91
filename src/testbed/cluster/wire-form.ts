/**
 * Between client-node's models and the JSON the API server speaks. A list through a typed API gives models
 * (a device attribute's `int` becomes `_int`) while a watch gives the JSON as sent, so caches that read field
 * names the models rename keep every object in wire form, and writes turn wire form back into a model.
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';

export function wireForm<T>(model: unknown, modelType: string): T {
  return ObjectSerializer.serialize(model, modelType, '') as T;
}

export function modelForm<T>(wire: unknown, modelType: string): T {
  return ObjectSerializer.deserialize(wire, modelType, '') as T;
}
