/**
 * TypeBox helpers that produce CRD-structural schema nodes (TypeBox's own Record/Union/Literal emit
 * patternProperties/anyOf-of-const, which a CRD's structural schema does not allow).
 */
import { MaxQuantityLength } from './string-limits.js';
import { type SchemaOptions, type Static, type TSchema, Type } from '@sinclair/typebox';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { CelValidationRule, OpenApiSchema } from './openapi-schema.js';

/** A string restricted to a fixed set of values, emitted as `type: string` + `enum`. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** A map with string keys, emitted as `type: object` + `additionalProperties`. */
export function StringMap<V extends TSchema>(value: V, options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, Static<V>>>({ ...options, type: 'object', additionalProperties: value });
}

/** Kubernetes resource quantity syntax (k8s.io/apimachinery resource.Quantity). */
export const QuantityPattern =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** A resource.Quantity: an integer or a string in quantity syntax. */
export function Quantity(options: SchemaOptions = {}) {
  return Type.Unsafe<number | string>({
    ...options,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    maxLength: MaxQuantityLength,
    pattern: QuantityPattern,
    'x-kubernetes-int-or-string': true,
  });
}

/** A map of resource name → quantity (corev1.ResourceList). */
export function ResourceList(options: SchemaOptions = {}) {
  return StringMap(Quantity(), options);
}

/** `metadata` of a custom resource: the API server validates it itself, the CRD only says `type: object`. */
export function ObjectMeta() {
  return Type.Unsafe<V1ObjectMeta>({ type: 'object' });
}

/**
 * Attach CEL rules (`x-kubernetes-validations`) to a schema's options. A `messageExpression` names the values
 * at fault; `message` stays as the fallback the API server uses when the expression fails.
 */
export function rules(...validations: Array<[rule: string, message: string, messageExpression?: string]>): {
  'x-kubernetes-validations': CelValidationRule[];
} {
  return {
    'x-kubernetes-validations': validations.map(([rule, message, messageExpression]) => ({
      message,
      ...(messageExpression ? { messageExpression } : {}),
      rule,
    })),
  };
}

/** A rule every key `variable` of a map must pass (`condition` reads it); its message lists the keys that do not. */
export function everyKeyRule(condition: string, message: string, variable = 'k'): [string, string, string] {
  const v = variable;
  return [
    `self.all(${v}, ${condition})`,
    message,
    `${celString(`${message}: `)} + self.filter(${v}, !(${condition})).map(${v}, "'" + ${v} + "'").join(', ')`,
  ];
}

/** A CEL string literal of `text` (single-quoted), to build messageExpressions from messages. */
export function celString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** Drop TypeBox's symbol keys: what remains is the plain OpenAPI schema. */
export function toOpenApi(schema: TSchema): OpenApiSchema {
  return JSON.parse(JSON.stringify(schema)) as OpenApiSchema;
}
