/**
 * CRD structural defaulting as kube-apiserver applies it to custom resources on every write
 * (apiextensions-apiserver pkg/apiserver/schema/defaulting): a property absent from the object, or null where the
 * schema does not allow null, takes a copy of its schema `default`; then every property, array item and map value
 * is defaulted in turn, the defaults just set included. `metadata` is left alone, as upstream does.
 */
type Schema = {
  default?: unknown;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defaultValue(value: unknown, schema: Schema | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    for (const item of value) defaultValue(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.default === undefined) continue;
    if (!(key in value) || (value[key] === null && !property.nullable)) value[key] = structuredClone(property.default);
  }
  const extra = isObject(schema.additionalProperties) ? (schema.additionalProperties as Schema) : undefined;
  for (const [key, child] of Object.entries(value)) defaultValue(child, schema.properties?.[key] ?? extra);
}

/** Applies the CRD version's schema defaults to a custom resource in place (all but metadata). */
export function applySchemaDefaults(object: Record<string, unknown>, schema: Record<string, unknown> | undefined): void {
  if (!schema) return;
  const { metadata: _metadata, ...properties } = (schema as Schema).properties ?? {};
  defaultValue(object, { ...(schema as Schema), properties });
}
