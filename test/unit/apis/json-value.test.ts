import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepCopy, jsonEqual } from '../../../src/apis/validation/json-value.js';

describe('deepCopy', () => {
  it('copies any JSON value into an equal value sharing no object with it (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = deepCopy(value);
        expect(jsonEqual(copy, value)).toBe(true);
        if (value !== null && typeof value === 'object') expect(copy).not.toBe(value);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('keeps a "__proto__" key as data instead of setting the prototype of the copy', () => {
    const copy = deepCopy(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies a Date (YAML timestamps) as a Date', () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    const copy = deepCopy({ at });
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(at);
    expect(copy.at.getTime()).toBe(at.getTime());
  });
});
