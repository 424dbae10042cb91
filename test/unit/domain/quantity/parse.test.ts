import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  canonicalQuantity,
  formatQuantity,
  parseQuantity,
  QuantityParseError,
  quantityMilliValue,
  quantityValue,
} from '../../../../src/domain/quantity/index.js';

// Expected values are k8s.io/apimachinery pkg/api/resource/quantity_test.go TestQuantityParse, as nanos.
const parsed: [string, bigint, string][] = [
  ['0', 0n, 'DecimalSI'],
  ['0n', 0n, 'DecimalSI'],
  ['0m', 0n, 'DecimalSI'],
  ['0Ki', 0n, 'BinarySI'],
  ['0Ti', 0n, 'BinarySI'],
  ['1', 1_000_000_000n, 'DecimalSI'],
  ['1Ki', 1024n * 10n ** 9n, 'BinarySI'],
  ['7Mi', 7n * 2n ** 20n * 10n ** 9n, 'BinarySI'],
  ['3Ei', 3n * 2n ** 60n * 10n ** 9n, 'BinarySI'],
  ['5n', 5n, 'DecimalSI'],
  ['4u', 4000n, 'DecimalSI'],
  ['3m', 3_000_000n, 'DecimalSI'],
  ['50k', 50n * 10n ** 12n, 'DecimalSI'],
  ['300T', 300n * 10n ** 21n, 'DecimalSI'],
  ['1E', 10n ** 27n, 'DecimalSI'],
  ['1E-3', 10n ** 6n, 'DecimalExponent'],
  ['1e3', 10n ** 12n, 'DecimalExponent'],
  ['1e14', 10n ** 23n, 'DecimalExponent'],
  ['100.035k', 100035n * 10n ** 9n, 'DecimalSI'],
  ['0.0005k', 5n * 10n ** 8n, 'DecimalSI'],
  ['0.5e-2', 5n * 10n ** 6n, 'DecimalExponent'],
  ['1.3E+6', 13n * 10n ** 14n, 'DecimalExponent'],
  ['7.123456M', 7123456n * 10n ** 9n, 'DecimalSI'],
  ['3.001n', 4n, 'DecimalSI'],
  ['1.1E-9', 2n, 'DecimalExponent'],
  ['0.0000000001', 1n, 'DecimalSI'],
  ['0.00000012345', 124n, 'DecimalSI'],
  ['9Ei', (2n ** 63n - 1n) * 10n ** 9n, 'BinarySI'],
  ['9223372036854775807Ki', (2n ** 63n - 1n) * 10n ** 9n, 'BinarySI'],
  ['12E', 12n * 10n ** 27n, 'DecimalSI'],
  ['100.035Ki', 102435840000000n, 'BinarySI'],
  ['0.5Mi', 524288n * 10n ** 9n, 'BinarySI'],
  ['0.05Gi', 53687091200000000n, 'BinarySI'],
  ['0.000000000001Ki', 2n, 'DecimalSI'],
  ['.001', 10n ** 6n, 'DecimalSI'],
  ['.0001k', 10n ** 8n, 'DecimalSI'],
  ['1.', 10n ** 9n, 'DecimalSI'],
  ['1.G', 10n ** 18n, 'DecimalSI'],
  // The task's examples.
  ['500m', 500_000_000n, 'DecimalSI'],
  ['1.5', 1_500_000_000n, 'DecimalSI'],
  ['1Gi', 2n ** 30n * 10n ** 9n, 'BinarySI'],
  ['100M', 10n ** 17n, 'DecimalSI'],
  ['+1', 10n ** 9n, 'DecimalSI'],
  ['.5', 5n * 10n ** 8n, 'DecimalSI'],
  ['0.1m', 100_000n, 'DecimalSI'],
  // Kubernetes quirks kept: a lone sign, a lone dot and a bare small suffix parse as zero.
  ['-', 0n, 'DecimalSI'],
  ['.', 0n, 'DecimalSI'],
  ['-.', 0n, 'DecimalSI'],
  ['Ki', 0n, 'BinarySI'],
  ['e3', 0n, 'DecimalExponent'],
];

describe('parseQuantity', () => {
  it.each(parsed)('parses %s exactly', (input, nanos, format) => {
    const q = parseQuantity(input);
    expect(q.nanos).toBe(nanos);
    expect(q.format).toBe(format);
  });

  it.each(parsed.filter(([input, nanos]) => nanos !== 0n && !input.startsWith('+')))(
    'parses -%s as the negation',
    (input, nanos, format) => {
      const q = parseQuantity(`-${input}`);
      expect(q.nanos).toBe(-nanos);
      expect(q.format).toBe(format);
    },
  );

  const rejected: [string, string][] = [
    ['', 'format'],
    ['1.1.M', 'format'],
    ['1+1.0M', 'format'],
    ['0.1mi', 'suffix'],
    ['0.1am', 'format'],
    ['aoeu', 'format'],
    ['.5i', 'suffix'],
    ['1i', 'suffix'],
    ['-3.01i', 'suffix'],
    ['-3.01e-', 'suffix'],
    [' 1', 'format'],
    ['1 ', 'format'],
    ['1e', 'suffix'],
    ['1K', 'suffix'],
    ['1ee3', 'suffix'],
    ['1e3e', 'format'],
    ['1Ki5', 'suffix'],
    ['1e99999999999999999999', 'suffix'],
    ['Ei', 'numeric'],
    ['-Pi', 'numeric'],
    ['e-10', 'numeric'],
    ['1,5', 'format'],
    ['1_000', 'format'],
    ['0x10', 'format'],
    ['1e5000', 'range'],
    ['-+1', 'suffix'],
  ];
  it.each(rejected)('rejects %j (%s) naming the value and the accepted forms', (input, reason) => {
    let error: unknown;
    try {
      parseQuantity(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuantityParseError);
    const e = error as QuantityParseError;
    expect(e.reason).toBe(reason);
    expect(e.message).toContain(JSON.stringify(input));
    expect(e.message).toContain('500m, 1.5, 2Gi, 1e3, 100M');
  });
});

describe('formatQuantity', () => {
  // k8s TestQuantityParseEmit, TestQuantityString (alternates) and TestParseQuantity canonical columns.
  const emitted: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['1.5', '1500m'],
    ['0.5', '500m'],
    ['1024Ki', '1Mi'],
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['5000m', '5'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['0.001T', '1G'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['00', '0'],
    ['1e3', '1e3'],
    ['100M', '100M'],
    ['500m', '500m'],
    ['999999999999999999.1', '999999999999999999100m'],
    ['1000000000000000000', '1E'],
    ['10000000000000000000000m', '10E'],
    ['9223372036854775808.1', '9223372036854775808100m'],
    ['9Ei', '9223372036854775807'],
    ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'],
    ['8Gi', '8Gi'],
    ['+1', '+1'],
    ['1E3', '1E3'],
    ['-1.5', '-1500m'],
    ['-1024Mi', '-1Gi'],
  ];
  it.each(emitted)('prints %s as %s', (input, expected) => {
    expect(formatQuantity(parseQuantity(input))).toBe(expected);
  });

  it('keeps the parsed text only where Kubernetes does (+1 and 1E3 are not canonical)', () => {
    expect(canonicalQuantity(parseQuantity('+1'))).toBe('1');
    expect(canonicalQuantity(parseQuantity('1E3'))).toBe('1e3');
    expect(parseQuantity('1.5').text).toBeUndefined();
    expect(parseQuantity('1500m').text).toBe('1500m');
  });

  it('prints decimal values past 10^18 with an E suffix that parses back (Kubernetes drops the exponent)', () => {
    expect(formatQuantity(parseQuantity('1000E'))).toBe('1000E');
    expect(parseQuantity('1000E').nanos).toBe(10n ** 30n);
  });
});

describe('value and milliValue round up away from zero', () => {
  const rows: [string, number, number][] = [
    ['1.5', 2, 1500],
    ['100m', 1, 100],
    ['0.1m', 1, 1],
    ['1Ki', 1024, 1024000],
    ['1n', 1, 1],
    ['-1.5', -2, -1500],
    ['-0.1m', -1, -1],
    ['2', 2, 2000],
    ['0', 0, 0],
    ['1.0001', 2, 1001],
    ['250m', 1, 250],
  ];
  it.each(rows)('%s → value %d, milliValue %d', (input, value, milli) => {
    const q = parseQuantity(input);
    expect(quantityValue(q)).toBe(value);
    expect(quantityMilliValue(q)).toBe(milli);
  });
});

const decimalSuffixes = ['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E'];
const binarySuffixes = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const multiplier: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const quantityText = fc
  .record({
    sign: fc.constantFrom('', '-', '+'),
    whole: fc.stringMatching(/^[0-9]{1,12}$/),
    fraction: fc.option(fc.stringMatching(/^[0-9]{0,9}$/), { nil: undefined }),
    suffix: fc.oneof(
      fc.constantFrom(...decimalSuffixes, ...binarySuffixes),
      fc.integer({ min: -12, max: 12 }).map((e) => `e${e}`),
    ),
  })
  .map(({ sign, whole, fraction, suffix }) => ({
    text: `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${suffix}`,
    sign,
    whole,
    fraction,
    suffix,
  }));

describe('properties', () => {
  it('parse(format(q)) has the value of q, and printing is idempotent', () => {
    fc.assert(
      fc.property(quantityText, ({ text }) => {
        const q = parseQuantity(text);
        const printed = formatQuantity(q);
        const again = parseQuantity(printed);
        expect(again.nanos).toBe(q.nanos);
        expect(formatQuantity(again)).toBe(printed);
        expect(canonicalQuantity(again)).toBe(canonicalQuantity(q));
      }),
      { numRuns: 2000 },
    );
  });

  it('the exact value agrees with floating-point arithmetic on the text (up to rounding to 1n)', () => {
    fc.assert(
      fc.property(quantityText, ({ text, sign, whole, fraction, suffix }) => {
        const factor = suffix.startsWith('e') ? 10 ** Number(suffix.slice(1)) : (multiplier[suffix] as number);
        const approx = Number(`${whole}.${fraction ?? ''}0`) * factor * (sign === '-' ? -1 : 1);
        const nanos = Number(parseQuantity(text).nanos) / 1e9;
        const capped = suffix.endsWith('i') ? Math.sign(approx) * Math.min(Math.abs(approx), 2 ** 63 - 1) : approx;
        expect(Math.abs(nanos - capped)).toBeLessThanOrEqual(Math.abs(capped) * 1e-12 + 1e-9);
      }),
      { numRuns: 2000 },
    );
  });

  it('canonical text is one of the k8s shapes: digits then at most one suffix', () => {
    fc.assert(
      fc.property(quantityText, ({ text }) => {
        expect(canonicalQuantity(parseQuantity(text))).toMatch(/^-?[0-9]+([numkMGTPE]|[KMGTPE]i|e-?[0-9]+)?$/);
      }),
    );
  });
});

describe('quantity length cap', () => {
  it('refuses a quantity longer than 64 characters before reading its digits, quoting only its start', () => {
    const huge = '1'.repeat(1024 * 1024);
    let error: unknown;
    try {
      parseQuantity(huge);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QuantityParseError);
    expect((error as QuantityParseError).reason).toBe('length');
    expect((error as Error).message).toMatch(
      /^parsing quantity "1{40}"…: the value is 1048576 characters long; at most 64 are accepted; accepted: /,
    );
  });

  it('still parses the longest legitimate forms', () => {
    for (const text of [
      '9223372036854775807',
      '-9223372036854775807m',
      '0.000000001',
      '9.223372036854775807E+18',
      `0.${'0'.repeat(60)}1`,
    ]) {
      expect(text.length).toBeLessThanOrEqual(64);
      expect(() => parseQuantity(text)).not.toThrow();
    }
  });
});
