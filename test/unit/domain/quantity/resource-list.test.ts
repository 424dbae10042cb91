import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  addQuantities,
  addResources,
  compareQuantities,
  exceededResources,
  fitsResources,
  formatQuantity,
  formatResourceList,
  isZeroResources,
  maxResources,
  parseQuantity,
  parseResourceList,
  quantityFromMilli,
  ResourceListParseError,
  subtractQuantities,
  subtractResources,
} from '../../../../src/domain/quantity/index.js';

describe('parseResourceList', () => {
  it('gives cpu in millicores and everything else in base units rounded up', () => {
    expect(parseResourceList({ cpu: '1.5', memory: '1Gi', 'ephemeral-storage': '10G', pods: '110', 'nvidia.com/gpu': 1 })).toEqual({
      cpu: 1500,
      memory: 1073741824,
      'ephemeral-storage': 10_000_000_000,
      pods: 110,
      'nvidia.com/gpu': 1,
    });
    expect(parseResourceList({ cpu: '0.1m', memory: '1.5' })).toEqual({ cpu: 1, memory: 2 });
    expect(parseResourceList(undefined)).toEqual({});
  });

  it('names the resource and the value when an entry is not a quantity', () => {
    expect(() => parseResourceList({ cpu: '1', memory: '1GB' })).toThrow(ResourceListParseError);
    expect(() => parseResourceList({ memory: '1GB' })).toThrow(/resource "memory".*"1GB"/);
  });
});

describe('formatResourceList', () => {
  it('prints cpu as millicores and memory in binary SI, as Kubernetes would', () => {
    expect(formatResourceList({ cpu: 1500, memory: 1610612736, pods: 110, cpuless: 0 })).toEqual({
      cpu: '1500m',
      cpuless: '0',
      memory: '1536Mi',
      pods: '110',
    });
    expect(formatResourceList({ cpu: 2000, memory: 1000, 'ephemeral-storage': 20 * 2 ** 30 })).toEqual({
      cpu: '2',
      memory: '1k',
      'ephemeral-storage': '20Gi',
    });
  });

  it('round-trips through parseResourceList', () => {
    const list = fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods', 'nvidia.com/gpu', 'ephemeral-storage'), fc.nat({ max: 2 ** 40 }));
    fc.assert(
      fc.property(list, (l) => {
        expect(parseResourceList(formatResourceList(l))).toEqual(l);
      }),
    );
  });
});

describe('resource arithmetic', () => {
  const a = { cpu: 1000, memory: 512, pods: 1 };
  const b = { cpu: 500, 'nvidia.com/gpu': 1 };

  it('adds and subtracts key by key, missing keys counting as zero', () => {
    expect(addResources(a, b)).toEqual({ cpu: 1500, memory: 512, pods: 1, 'nvidia.com/gpu': 1 });
    expect(subtractResources(a, b)).toEqual({ cpu: 500, memory: 512, pods: 1, 'nvidia.com/gpu': -1 });
    expect(addResources()).toEqual({});
  });

  it('takes the key-by-key maximum', () => {
    expect(maxResources(a, b, { memory: 1024 })).toEqual({ cpu: 1000, memory: 1024, pods: 1, 'nvidia.com/gpu': 1 });
  });

  it('fits only when every request is available (a missing resource has none)', () => {
    expect(fitsResources({ cpu: 1000 }, a)).toBe(true);
    expect(fitsResources({ cpu: 1001 }, a)).toBe(false);
    expect(fitsResources(b, a)).toBe(false);
    expect(fitsResources({ 'nvidia.com/gpu': 0 }, a)).toBe(true);
    expect(exceededResources({ cpu: 2000, memory: 1, 'nvidia.com/gpu': 1 }, a)).toEqual(['cpu', 'nvidia.com/gpu']);
  });

  it('knows zero lists', () => {
    expect(isZeroResources({})).toBe(true);
    expect(isZeroResources({ cpu: 0, memory: 0 })).toBe(true);
    expect(isZeroResources({ cpu: 0, memory: 1 })).toBe(false);
  });

  it('is exact where floating point is not (0.1 + 0.2 cores is 300m)', () => {
    const sum = addQuantities(parseQuantity('0.1'), parseQuantity('0.2'));
    expect(formatQuantity(sum)).toBe('300m');
    expect(compareQuantities(sum, parseQuantity('300m'))).toBe(0);
    expect(formatQuantity(subtractQuantities(parseQuantity('1Gi'), parseQuantity('512Mi')))).toBe('512Mi');
    expect(formatQuantity(addQuantities(parseQuantity('0'), parseQuantity('1Ki')))).toBe('1Ki');
    expect(formatQuantity(quantityFromMilli(2500))).toBe('2500m');
  });

  it('add then subtract is the identity, and compare agrees with subtraction', () => {
    const q = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((nanos) => ({ nanos, format: 'DecimalSI' as const }));
    fc.assert(
      fc.property(q, q, (x, y) => {
        expect(subtractQuantities(addQuantities(x, y), y).nanos).toBe(x.nanos);
        const d = subtractQuantities(x, y).nanos;
        expect(compareQuantities(x, y)).toBe(d > 0n ? 1 : d < 0n ? -1 : 0);
      }),
    );
  });
});
