/** The few built-in validations the simulator enforces (the rest is left to admission webhooks and CRD CEL). */
import { validateCrd } from './crd-types.js';
import { validateDraObject } from './dra-objects.js';
import { invalid } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type ResourceType } from './resource-type.js';

export function validateObject(type: ResourceType, obj: KubeObject): void {
  const id = `${type.group}/${type.plural}`;
  if (id === 'apiextensions.k8s.io/customresourcedefinitions') validateCrd(type, obj);
  validateDraObject(type, obj);
  if (id === '/pods') {
    const containers = (obj.spec as { containers?: unknown } | undefined)?.containers;
    if (!Array.isArray(containers) || containers.length === 0) {
      throw invalid(type, obj.metadata.name ?? '', [{ field: 'spec.containers', message: 'Required value', reason: 'FieldValueRequired' }]);
    }
  }
  const labels = obj.metadata.labels;
  if (labels !== undefined && (typeof labels !== 'object' || labels === null || Object.values(labels).some((v) => typeof v !== 'string'))) {
    throw invalid(type, obj.metadata.name ?? '', [{ field: 'metadata.labels', message: 'Invalid value: label values must be strings' }]);
  }
}
