/**
 * The CEL environment for x-kubernetes-validations: cel-js plus the Kubernetes CEL extension functions the
 * rules use (the regex library's `find`/`findAll`, the lists library's `indexOf`; cel-js already has the strings extension and `matches`).
 */
import { Environment } from '@marcbachmann/cel-js';
import type { OpenApiSchema } from '../schema/openapi-schema.js';

export type CompiledRule = (context: Record<string, unknown>) => unknown;

/**
 * Compiled patterns by source and flags. The rules' patterns are literals of the CRDs (a fixed set), so this stays
 * small; it is cleared past a bound should a rule ever build patterns from the object.
 */
class PatternCache {
  private readonly compiled = new Map<string, RegExp>();

  get(pattern: string, flags: string): RegExp {
    const key = `${flags}/${pattern}`;
    let regex = this.compiled.get(key);
    if (!regex) {
      if (this.compiled.size >= 256) this.compiled.clear();
      regex = new RegExp(pattern, flags);
      this.compiled.set(key, regex);
    }
    // Global patterns carry their position between calls: each call starts from the beginning.
    regex.lastIndex = 0;
    return regex;
  }
}

function regexFind(patterns: PatternCache, value: string, pattern: string): string {
  return patterns.get(pattern, 'u').exec(value)?.[0] ?? '';
}

function regexFindAll(patterns: PatternCache, value: string, pattern: string, limit: bigint = -1n): string[] {
  const matches = [...value.matchAll(patterns.get(pattern, 'gu'))].map((m) => m[0]);
  return limit < 0n ? matches : matches.slice(0, Number(limit));
}

/** CEL equality of two typed values (lists and maps compare by content). */
function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => celEqual(item, b[i]));
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const [ka, kb] = [Object.keys(a), Object.keys(b)];
    return ka.length === kb.length && ka.every((k) => celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** The Kubernetes lists library's `indexOf`: the first index of an equal element, -1 if none. */
function listIndexOf(list: unknown[], value: unknown): bigint {
  return BigInt(list.findIndex((item) => celEqual(item, value)));
}

function kubernetesEnvironment(): Environment {
  const patterns = new PatternCache();
  return new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })
    .registerFunction('string.find(string): string', (value: string, pattern: string) => regexFind(patterns, value, pattern))
    .registerFunction('string.findAll(string): list<string>', (value: string, pattern: string) => regexFindAll(patterns, value, pattern))
    .registerFunction('string.findAll(string, int): list<string>', (value: string, pattern: string, limit: bigint) =>
      regexFindAll(patterns, value, pattern, limit),
    )
    .registerFunction('list.indexOf(dyn): int', listIndexOf);
}

/** Compiles rules once per text; create one per validator (no module-level state). */
export class CelRuleCompiler {
  private readonly environment = kubernetesEnvironment();
  private readonly compiled = new Map<string, CompiledRule>();
  private readonly transition = new Map<string, boolean>();
  private readonly ruleBearing = new WeakMap<OpenApiSchema, boolean>();

  /** Whether the schema or anything below it has x-kubernetes-validations (else its values need no visit). */
  hasRulesWithin(schema: OpenApiSchema): boolean {
    let known = this.ruleBearing.get(schema);
    if (known === undefined) {
      this.ruleBearing.set(schema, false); // recursive schemas end here
      const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      const children = [
        ...Object.values(schema.properties ?? {}),
        ...(schema.items ? [schema.items] : []),
        ...(additional ? [additional] : []),
      ];
      known = (schema['x-kubernetes-validations']?.length ?? 0) > 0 || children.some((child) => this.hasRulesWithin(child));
      this.ruleBearing.set(schema, known);
    }
    return known;
  }

  /** isTransitionRule, decided once per rule text. */
  isTransitionRule(rule: string): boolean {
    let known = this.transition.get(rule);
    if (known === undefined) {
      known = isTransitionRule(rule);
      this.transition.set(rule, known);
    }
    return known;
  }

  compile(rule: string): CompiledRule {
    let program = this.compiled.get(rule);
    if (!program) {
      const parsed = this.environment.parse(rule);
      program = (context) => parsed(context) as unknown;
      this.compiled.set(rule, program);
    }
    return program;
  }
}

/** A rule is a transition rule when it reads `oldSelf`; the API server evaluates those only on update. */
export function isTransitionRule(rule: string): boolean {
  return /\boldSelf\b/.test(rule);
}
