/** Test helpers: SchemaValidators for upstream Karpenter's CRDs (the oracle) and for ours. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  type CrdDefinition,
  type OpenApiSchema,
  NodeClaimDefinition,
  NodePoolDefinition,
  openApiSchemaOf,
} from '../../../src/apis/index.js';
import { type FieldError, SchemaValidator } from '../../../src/apis/validation/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'upstream-crds');

export interface UpstreamCrd {
  spec: {
    group: string;
    scope: string;
    names: Record<string, unknown>;
    versions: Array<{
      name: string;
      schema: { openAPIV3Schema: OpenApiSchema };
      additionalPrinterColumns?: unknown[];
      subresources?: unknown;
    }>;
  };
}

export function loadUpstreamCrd(file: string): UpstreamCrd {
  return parse(readFileSync(join(fixtures, file), 'utf8')) as UpstreamCrd;
}

export function upstreamSchema(file: string, version = 'v1'): OpenApiSchema {
  const found = loadUpstreamCrd(file).spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`loading ${file}: no version ${version}`);
  return found.schema.openAPIV3Schema;
}

export const oracle = {
  nodePoolHead: () => new SchemaValidator(upstreamSchema('karpenter.sh_nodepools.yaml')),
  nodeClaimHead: () => new SchemaValidator(upstreamSchema('karpenter.sh_nodeclaims.yaml')),
  nodePoolV109: () => new SchemaValidator(upstreamSchema('v1.0.9/karpenter.sh_nodepools.yaml')),
  nodeClaimV109: () => new SchemaValidator(upstreamSchema('v1.0.9/karpenter.sh_nodeclaims.yaml')),
};

export const ours = {
  nodePool: () => new SchemaValidator(openApiSchemaOf(NodePoolDefinition)),
  nodeClaim: () => new SchemaValidator(openApiSchemaOf(NodeClaimDefinition)),
  of: (def: CrdDefinition) => new SchemaValidator(openApiSchemaOf(def)),
};

/** What the API server does on create (no old object) or update: prune, default, validate. */
export function admissionErrors(validator: SchemaValidator, object: unknown, oldObject?: unknown): FieldError[] {
  const stored = oldObject === undefined ? undefined : validator.applyDefaults(oldObject);
  return validator.admit(object, stored === undefined ? {} : { oldObject: stored }).errors;
}

/** Descriptions removed, keys sorted: two schemas that validate alike compare equal. */
export function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'description')
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, withoutDescriptions(v)]),
    );
  }
  return value;
}

export function nodePool(
  spec: Record<string, unknown> = {},
  templateSpec: Record<string, unknown> = {},
  templateMetadata?: Record<string, unknown>,
): Record<string, unknown> {
  const template: Record<string, unknown> = {
    spec: {
      nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      ...templateSpec,
    },
  };
  if (templateMetadata) template.metadata = templateMetadata;
  return { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default' }, spec: { template, ...spec } };
}

export function nodeClaim(spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'default-abcde' },
    spec: {
      nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['b3-8'] }],
      ...spec,
    },
  };
}
