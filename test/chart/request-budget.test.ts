// The chart passes its request budget to the service as `run` reads it, and its schema refuses a value that is no byte quantity.
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parseOperatorOptions } from '../../src/operator/options.js';
import { only, render, valuesFor } from './chart-fixtures.js';

async function budgetOf(extra: Record<string, unknown>): Promise<number> {
  const container = only<k8s.V1Deployment>(await render(valuesFor('scaleway', 'selfSigned', extra)), 'Deployment').spec?.template.spec
    ?.containers[0];
  const env = Object.fromEntries((container?.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]));
  return parseOperatorOptions([], env).requestBytesInFlight;
}

describe('requestBytesInFlight', () => {
  it('defaults to 16Mi per port and passes a set value through', async () => {
    expect(await budgetOf({})).toBe(16 * 1024 * 1024);
    expect(await budgetOf({ requestBytesInFlight: '32Mi' })).toBe(32 * 1024 * 1024);
  });

  it('is refused by the values schema when it is no byte quantity', async () => {
    await expect(budgetOf({ requestBytesInFlight: 'lots' })).rejects.toThrow(/requestBytesInFlight/);
  });
});
