import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/index.js';
import { CatalogPriceBook } from '../../../src/views/price-book.js';

const book = new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud'), scaleway: loadCatalog('scaleway') });

describe('CatalogPriceBook', () => {
  it.each([
    [
      'region label',
      { 'karpenter-eu.io/cloud': 'scaleway', 'node.kubernetes.io/instance-type': 'DEV1-S', 'topology.kubernetes.io/region': 'fr-par' },
    ],
    [
      'zone label only',
      { 'karpenter-eu.io/cloud': 'scaleway', 'node.kubernetes.io/instance-type': 'DEV1-S', 'topology.kubernetes.io/zone': 'fr-par-2' },
    ],
    [
      'wildcard-region catalog price',
      { 'karpenter-eu.io/cloud': 'ovhcloud', 'node.kubernetes.io/instance-type': 'b3-8', 'topology.kubernetes.io/zone': 'eu-west-par-a' },
    ],
  ])('prices a node from its labels (%s)', (_name, labels) => {
    const price = book.hourlyForLabels(labels);
    expect(price).toBeGreaterThan(0);
  });

  it('is undefined for an unknown flavor or a node without a cloud label', () => {
    expect(
      book.hourlyForLabels({
        'karpenter-eu.io/cloud': 'scaleway',
        'node.kubernetes.io/instance-type': 'NOPE',
        'topology.kubernetes.io/zone': 'fr-par-1',
      }),
    ).toBeUndefined();
    expect(book.hourlyForLabels({ 'node.kubernetes.io/instance-type': 'b3-8' })).toBeUndefined();
  });
});
