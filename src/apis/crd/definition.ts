/** A kind served by karpenter-eu and the CustomResourceDefinition built from its schema. */
import type { TSchema } from '@sinclair/typebox';
import { toOpenApi } from '../schema/builders.js';
import type { OpenApiSchema } from '../schema/openapi-schema.js';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  priority?: number;
  description?: string;
}

export interface CrdDefinition {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  scope: 'Cluster' | 'Namespaced';
  categories: string[];
  shortNames?: string[];
  schema: TSchema;
  printerColumns: PrinterColumn[];
  scale?: { specReplicasPath: string; statusReplicasPath: string };
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: { categories: string[]; kind: string; listKind: string; plural: string; singular: string; shortNames?: string[] };
    scope: 'Cluster' | 'Namespaced';
    versions: Array<{
      additionalPrinterColumns: PrinterColumn[];
      name: string;
      schema: { openAPIV3Schema: OpenApiSchema };
      served: boolean;
      storage: boolean;
      subresources: { status: Record<string, never>; scale?: { specReplicasPath: string; statusReplicasPath: string } };
    }>;
  };
}

export function apiVersionOf(def: CrdDefinition): string {
  return `${def.group}/${def.version}`;
}

export function crdName(def: CrdDefinition): string {
  return `${def.plural}.${def.group}`;
}

/** The plain OpenAPI schema of a kind (what the API server validates against). */
export function openApiSchemaOf(def: CrdDefinition): OpenApiSchema {
  return sortProperties(toOpenApi(def.schema));
}

/** Alphabetical properties, as controller-gen writes them, so that generated files diff well. */
function sortProperties(schema: OpenApiSchema): OpenApiSchema {
  const out: OpenApiSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.keys(schema.properties)
        .sort()
        .map((key) => [key, sortProperties(schema.properties![key]!)]),
    );
  }
  if (schema.items) out.items = sortProperties(schema.items);
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = sortProperties(schema.additionalProperties);
  return out;
}

export function buildCrd(def: CrdDefinition): CustomResourceDefinition {
  const subresources: CustomResourceDefinition['spec']['versions'][number]['subresources'] = { status: {} };
  if (def.scale) subresources.scale = { ...def.scale };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(def), annotations: { 'karpenter-eu.io/generated-by': 'scripts/generate-crds.ts' } },
    spec: {
      group: def.group,
      names: {
        categories: [...def.categories],
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        ...(def.shortNames ? { shortNames: [...def.shortNames] } : {}),
      },
      scope: def.scope,
      versions: [
        {
          additionalPrinterColumns: def.printerColumns.map((c) => ({ ...c })),
          name: def.version,
          schema: { openAPIV3Schema: openApiSchemaOf(def) },
          served: true,
          storage: true,
          subresources,
        },
      ],
    },
  };
}
