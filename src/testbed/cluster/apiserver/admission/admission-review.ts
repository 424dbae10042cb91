/** The AdmissionReview v1 request kube-apiserver sends (admission.k8s.io/v1 AdmissionRequest). */
import { type AdmissionAttributes } from './admission-types.js';

const optionsKind: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

function subResourceKind(attrs: AdmissionAttributes): { group: string; version: string; kind: string } {
  const { type, subResource } = attrs;
  if (subResource === 'eviction') return { group: 'policy', version: 'v1', kind: 'Eviction' };
  if (subResource === 'binding') return { group: '', version: 'v1', kind: 'Binding' };
  return { group: type.group, version: type.version, kind: type.kind };
}

export function buildAdmissionReview(uid: string, attrs: AdmissionAttributes): unknown {
  const kind = subResourceKind(attrs);
  const resource = { group: attrs.type.group, version: attrs.type.version, resource: attrs.type.plural };
  const request: Record<string, unknown> = {
    uid,
    kind,
    resource,
    requestKind: kind,
    requestResource: resource,
    name: attrs.name,
    operation: attrs.operation,
    userInfo: attrs.userInfo,
    object: attrs.object,
    oldObject: attrs.oldObject,
    dryRun: attrs.dryRun,
    options: { apiVersion: 'meta.k8s.io/v1', kind: optionsKind[attrs.operation] ?? 'CreateOptions', ...(attrs.options ?? {}) },
  };
  if (attrs.subResource) {
    request.subResource = attrs.subResource;
    request.requestSubResource = attrs.subResource;
  }
  if (attrs.namespace) request.namespace = attrs.namespace;
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request };
}
