/**
 * Evaluates x-kubernetes-validations as the API server does: each rule on every present value of its schema
 * node, `self` the typed value, transition rules (`oldSelf`) only on update where the old value correlates
 * (through properties, map keys and map-/set-list items; atomic lists do not correlate).
 */
import type { CelValidationRule, OpenApiSchema } from '../schema/openapi-schema.js';
import type { CelRuleCompiler } from './cel-environment.js';
import { toCelValue } from './cel-values.js';
import { type FieldError, type FieldErrorType, childPath, indexPath, invalid } from './field-error.js';
import { isObject, jsonEqual } from './json-value.js';

const NoOldValue = Symbol('no old value');
type OldValue = unknown | typeof NoOldValue;

/** A present value, its schema node, its typed CEL mirror and its correlated old value, at `path`. */
interface Site {
  schema: OpenApiSchema;
  value: unknown;
  cel: unknown;
  oldValue: OldValue;
  path: string;
}

interface RuleWalk {
  compiler: CelRuleCompiler;
  errors: FieldError[];
}

export function validateCelRules(
  compiler: CelRuleCompiler,
  schema: OpenApiSchema,
  value: unknown,
  oldValue: OldValue,
  errors: FieldError[],
): void {
  // The typed CEL mirror of the whole value is built once and walked beside it: converting each subtree per
  // rule would cost depth × size (a NodePool has rules at several nesting levels).
  walk({ compiler, errors }, { schema, value, cel: toCelValue(schema, value), oldValue, path: '' });
}

function walk(ctx: RuleWalk, site: Site): void {
  const { schema, value, cel, oldValue, path } = site;
  if (value === undefined || value === null || !ctx.compiler.hasRulesWithin(schema)) return;
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    const error = evaluateRule(ctx.compiler, rule, site);
    if (error) ctx.errors.push(error);
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    const celItems = cel as unknown[];
    for (let i = 0; i < value.length; i++) {
      walk(ctx, {
        schema: items,
        value: value[i],
        cel: celItems[i],
        oldValue: correlateItem(schema, value[i], oldValue),
        path: indexPath(path, i),
      });
    }
  } else if (isObject(value)) {
    const oldObject = isObject(oldValue) ? oldValue : undefined;
    const celObject = cel as Record<string, unknown>;
    const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const key in value) {
      const property = schema.properties?.[key];
      const childSchema = property ?? additional;
      if (!childSchema) continue;
      const oldChild = oldObject && key in oldObject ? oldObject[key] : NoOldValue;
      walk(ctx, {
        schema: childSchema,
        value: value[key],
        cel: celObject[key],
        oldValue: oldChild,
        path: property ? childPath(path, key) : indexPath(path, key),
      });
    }
  }
}

export function noOldValue(): OldValue {
  return NoOldValue;
}

function correlateItem(schema: OpenApiSchema, item: unknown, oldValue: OldValue): OldValue {
  if (!Array.isArray(oldValue)) return NoOldValue;
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') return oldValue.find((old) => jsonEqual(old, item)) ?? NoOldValue;
  if (listType === 'map' && isObject(item)) {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const match = oldValue.find((old) => isObject(old) && keys.every((k) => jsonEqual(old[k], item[k])));
    return match ?? NoOldValue;
  }
  return NoOldValue;
}

function evaluateRule(compiler: CelRuleCompiler, rule: CelValidationRule, site: Site): FieldError | undefined {
  const transition = compiler.isTransitionRule(rule.rule);
  if (transition && site.oldValue === NoOldValue) return undefined;
  const context: Record<string, unknown> = transition
    ? { self: site.cel, oldSelf: toCelValue(site.schema, site.oldValue) }
    : { self: site.cel };
  try {
    if (compiler.compile(rule.rule)(context) === true) return undefined;
    return ruleFailure(compiler, rule, site, context);
  } catch (err) {
    return ruleFailure(compiler, rule, site, context, err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err));
  }
}

/** The error of a failing rule (`detail`: why it could not be evaluated); built only then, as most rules pass. */
function ruleFailure(
  compiler: CelRuleCompiler,
  rule: CelValidationRule,
  { schema, value, path }: Site,
  context: Record<string, unknown>,
  detail?: string,
): FieldError {
  const errorPath = rule.fieldPath ? `${path}${rule.fieldPath}` : path;
  const typeName = schema.type ?? (typeof value === 'string' ? 'string' : 'integer');
  const message = rule.message ?? `failed rule: ${rule.rule}`;
  if (detail !== undefined) return { ...invalid(errorPath, typeName, `${message}: evaluating rule: ${detail}`), value };
  return { ...invalid(errorPath, typeName, messageOf(compiler, rule, context) ?? message, reasonType(rule.reason)), value };
}

/** The messageExpression's text; undefined (so `message` is used) when it fails or is empty, as the API server does. */
function messageOf(compiler: CelRuleCompiler, rule: CelValidationRule, context: Record<string, unknown>): string | undefined {
  if (!rule.messageExpression) return undefined;
  try {
    const text = compiler.compile(rule.messageExpression)(context);
    return typeof text === 'string' && text.trim() !== '' ? text : undefined;
  } catch {
    return undefined;
  }
}

function reasonType(reason: string | undefined): FieldErrorType {
  switch (reason) {
    case 'FieldValueRequired':
    case 'FieldValueDuplicate':
    case 'FieldValueForbidden':
      return reason;
    default:
      return 'FieldValueInvalid';
  }
}
