import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CrdDefinitions } from '../../../src/apis/crd/registry.js';
import { toOpenApi } from '../../../src/apis/schema/builders.js';
import type { OpenApiSchema } from '../../../src/apis/schema/openapi-schema.js';
import { MaxScheduleLength } from '../../../src/apis/schema/string-limits.js';
import { BudgetSchedulePattern } from '../../../src/apis/v1/patterns.js';
import { OVHRegionPattern } from '../../../src/apis/v1alpha1/ovh-nodeclass.js';
import type { FieldError } from '../../../src/apis/validation/field-error.js';
import { validateStructure } from '../../../src/apis/validation/structural.js';

interface PatternField {
  path: string;
  pattern: string;
  maxLength: number | undefined;
}

function patternFields(schema: OpenApiSchema, path: string, out: PatternField[]): PatternField[] {
  if (schema.pattern !== undefined) out.push({ path, pattern: schema.pattern, maxLength: schema.maxLength });
  for (const [key, child] of Object.entries(schema.properties ?? {})) patternFields(child, `${path}.${key}`, out);
  if (schema.items) patternFields(schema.items as OpenApiSchema, `${path}[]`, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    patternFields(schema.additionalProperties, `${path}{}`, out);
  return out;
}

const fields = CrdDefinitions.flatMap((d) => patternFields(toOpenApi(d.schema), d.kind, []));

/** Whether the validator (not the regex) accepts `value` for the pattern, with no length cap in the way. */
function validatorAccepts(pattern: string, value: string): boolean {
  const errors: FieldError[] = [];
  validateStructure({ type: 'string', pattern }, value, 'f', errors, { reportUnknownFields: false });
  return errors.length === 0;
}

/** Max-length strings that make backtracking engines explore: runs of one or two pattern-ish characters and a spoiling end. */
function adversarial(length: number): string[] {
  const units = ['a', 'A', '0', '-', '.', ' ', 'a-', 'a.', '0h', 'a ', '- ', '\t', 'a/'];
  const tails = ['', '!', '\n', '-', '.', '/'];
  return units.flatMap((unit) => tails.map((tail) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length - tail.length) + tail));
}

describe('pattern-checked strings: length caps and linear-time patterns', () => {
  it('every pattern-checked string of every CRD has a maxLength', () => {
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.filter((f) => f.maxLength === undefined).map((f) => f.path)).toEqual([]);
  });

  it('each pattern, fed adversarial strings of its maximum length, accepts and refuses as its regex does', () => {
    for (const { pattern, maxLength } of fields) {
      if (pattern === BudgetSchedulePattern) continue; // its regex takes minutes at this length: checked below
      const regex = new RegExp(pattern, 'u');
      for (const value of adversarial(maxLength as number))
        expect(validatorAccepts(pattern, value), `${pattern} on ${JSON.stringify(value.slice(0, 12))}…`).toBe(regex.test(value));
    }
  });

  it("the budget schedule check accepts and refuses what upstream's regex does (short strings, where the regex is quick)", () => {
    const regex = new RegExp(BudgetSchedulePattern, 'u');
    const character = fc.constantFrom('a', '*', '1', ',', '/', '@', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', '\ufeff', '😀');
    const text = fc.oneof(
      fc.array(character, { maxLength: 14 }).map((cs) => cs.join('')),
      fc
        .tuple(fc.constantFrom('@hourly', '@daily', '@yearly', '@', 'hourly', '@HOURLY'), fc.array(character, { maxLength: 4 }))
        .map(([m, cs]) => m + cs.join('')),
    );
    fc.assert(
      fc.property(text, (value) => validatorAccepts(BudgetSchedulePattern, value) === regex.test(value)),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['spaces ending in a newline (the worst case: every split of every suffix fails)', `${' '.repeat(MaxScheduleLength - 1)}\n`, false],
    ['single-character fields', `${'* '.repeat(MaxScheduleLength / 2 - 1)}*`, true],
    ['fields ending in a line terminator after the last separator', `${'* '.repeat(MaxScheduleLength / 2 - 1)}\n`, false],
    ['no white space at all', '*'.repeat(MaxScheduleLength), false],
    ['a macro followed by anything', `@hourly${'x'.repeat(MaxScheduleLength - 7)}`, true],
    ['four fields after nothing but line terminators', `${'\n'.repeat(MaxScheduleLength - 7)}a a a a`, false],
    ['five fields across lines (a newline is a separator)', `${'a'.repeat(MaxScheduleLength - 9)}\na\na\na\na`, true],
  ])('the budget schedule at its maximum length: %s', (_name, value, accepted) => {
    expect(value.length).toBeLessThanOrEqual(MaxScheduleLength);
    expect(validatorAccepts(BudgetSchedulePattern, value)).toBe(accepted);
  });

  it('the OVH region pattern takes the strings it took before it was made unambiguous', () => {
    const before = /^[A-Z]+[A-Z0-9]*(-[A-Z0-9]+)*$/u;
    const region = fc.array(fc.constantFrom('A', 'Z', '0', '9', '-', 'a', ' '), { maxLength: 16 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(region, (value) => new RegExp(OVHRegionPattern, 'u').test(value) === before.test(value)),
      { numRuns: 2000 },
    );
  });
});
