/**
 * The API model of karpenter-eu, one source of truth: TypeBox schemas give the TypeScript types, the CRDs
 * under manifests/crds/ (scripts/generate-crds.ts) and the runtime validation (./validation/).
 */
export * from './v1/labels.js';
export * from './v1/patterns.js';
export * from './v1/common.js';
export * from './v1/nodepool.js';
export * from './v1/nodeclaim.js';
export * from './v1/deletion-reasons.js';
export * from './v1alpha1/common.js';
export * from './v1alpha1/nodeoverlay.js';
export * from './v1alpha1/ovh-nodeclass.js';
export * from './v1alpha1/scaleway-nodeclass.js';
export * from './v1alpha1/outscale-nodeclass.js';
export * from './crd/definition.js';
export * from './crd/registry.js';
export type { OpenApiSchema, CelValidationRule } from './schema/openapi-schema.js';

import type { OutscaleNodeClass } from './v1alpha1/outscale-nodeclass.js';
import type { OVHNodeClass } from './v1alpha1/ovh-nodeclass.js';
import type { ScalewayNodeClass } from './v1alpha1/scaleway-nodeclass.js';

/** Any of the three cloud NodeClasses. */
export type NodeClass = OVHNodeClass | ScalewayNodeClass | OutscaleNodeClass;
