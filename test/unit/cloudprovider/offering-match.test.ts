import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidQuantityError, fits, parseRequest, satisfies } from '../../../src/cloudprovider/fake/offering-match.js';
import type { CloudProviderRequirement } from '../../../src/cloudprovider/types.js';

const labels = { 'node.kubernetes.io/instance-type': 'b3-8', 'karpenter-eu.io/instance-cpu': '8' };
const req = (key: string, operator: CloudProviderRequirement['operator'], values?: string[]): CloudProviderRequirement =>
  values ? { key, operator, values } : { key, operator };

describe('satisfies', () => {
  it.each([
    [req('node.kubernetes.io/instance-type', 'In', ['b3-8', 'c3-4']), true],
    [req('node.kubernetes.io/instance-type', 'In', ['c3-4']), false],
    [req('node.kubernetes.io/instance-type', 'NotIn', ['c3-4']), true],
    [req('node.kubernetes.io/instance-type', 'NotIn', ['b3-8']), false],
    [req('node.kubernetes.io/instance-type', 'Exists'), true],
    [req('node.kubernetes.io/instance-type', 'DoesNotExist'), false],
    [req('karpenter-eu.io/instance-cpu', 'Gt', ['4']), true],
    [req('karpenter-eu.io/instance-cpu', 'Gt', ['8']), false],
    [req('karpenter-eu.io/instance-cpu', 'Lt', ['9']), true],
    [req('karpenter-eu.io/instance-cpu', 'Lt', ['8']), false],
    [req('karpenter-eu.io/instance-cpu', 'Gte', ['8']), true],
    [req('karpenter-eu.io/instance-cpu', 'Lte', ['7']), false],
    [req('node.kubernetes.io/instance-type', 'Gt', ['1']), false],
    [req('karpenter-eu.io/instance-cpu', 'Gt', ['x']), false],
    // Keys the instance type does not define are set on the node from the NodeClaim: no constraint.
    [req('team', 'In', ['a']), true],
    [req('karpenter.sh/nodepool', 'DoesNotExist'), true],
  ])('%o → %s', (requirement, expected) => {
    expect(satisfies(labels, requirement)).toBe(expected);
  });

  it('In and NotIn of the same values always disagree on a defined key (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string()), (value, values) => {
        const l = { k: value };
        return satisfies(l, req('k', 'In', values)) !== satisfies(l, req('k', 'NotIn', values));
      }),
    );
  });
});

describe('parseRequest', () => {
  it.each([
    ['cpu', '500m', 500],
    ['cpu', '2', 2000],
    ['cpu', 1.5, 1500],
    ['cpu', '100u', 1],
    ['memory', '4Gi', 4 * 2 ** 30],
    ['memory', '128Mi', 128 * 2 ** 20],
    ['memory', '1G', 1e9],
    ['memory', '1e3', 1000],
    ['pods', '10', 10],
    ['nvidia.com/gpu', 1, 1],
  ])('%s %s → %d', (resource, value, expected) => {
    expect(parseRequest(resource, value)).toBe(expected);
  });

  it.each([
    ['cpu', 'two'],
    ['memory', '4GB'],
    ['memory', ''],
  ])('rejects %s %j naming the value', (resource, value) => {
    expect(() => parseRequest(resource, value)).toThrow(InvalidQuantityError);
    expect(() => parseRequest(resource, value)).toThrow(`parsing quantity: ${resource} is ${JSON.stringify(value)}`);
  });
});

describe('fits', () => {
  const allocatable = { cpu: 1900, memory: 7 * 2 ** 30, pods: 110 };
  it.each([
    [undefined, true],
    [{ cpu: '1900m', memory: '7Gi' }, true],
    [{ cpu: '2' }, false],
    [{ memory: '8Gi' }, false],
    [{ 'nvidia.com/gpu': '1' }, false],
    [{ 'nvidia.com/gpu': '0' }, true],
  ])('%o → %s', (requests, expected) => {
    expect(fits(requests, allocatable)).toBe(expected);
  });
});
