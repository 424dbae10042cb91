import { describe, expect, it } from 'vitest';
import { CallLog, FaultInjector, haltAfter } from '../../../src/testbed/emulators/faults.js';

describe('FaultInjector', () => {
  it('fires the first matching rule and honours times', () => {
    const faults = new FaultInjector();
    faults.add({ match: { action: 'CreateTags' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    expect(faults.decide({ method: 'POST', path: '/api/v1/CreateVms', action: 'CreateVms' })).toBeUndefined();
    expect(faults.decide({ method: 'POST', path: '/api/v1/CreateTags', action: 'CreateTags' })).toEqual({
      kind: 'server-error',
      status: 503,
    });
    expect(faults.decide({ method: 'POST', path: '/api/v1/CreateTags', action: 'CreateTags' })).toBeUndefined();
  });

  it('haltAfter lets exactly that many requests through, then drops every later one', () => {
    const faults = new FaultInjector();
    faults.add(haltAfter(2));
    const request = { method: 'POST', path: '/api/v1/CreateVms', action: 'CreateVms' };
    expect([faults.decide(request), faults.decide(request)]).toEqual([undefined, undefined]);
    expect(faults.decide(request)).toEqual({ kind: 'timeout', afterMs: 0 });
    expect(faults.decide({ method: 'GET', path: '/servers' })).toEqual({ kind: 'timeout', afterMs: 0 });
  });

  it('haltAfter with a counting match: other requests pass until that many matching ones went through, then all are dropped', () => {
    const faults = new FaultInjector();
    faults.add(haltAfter(1, { action: 'createServer' }));
    expect(faults.decide({ method: 'GET', path: '/servers', action: 'listServers' })).toBeUndefined();
    expect(faults.decide({ method: 'POST', path: '/servers', action: 'createServer' })).toBeUndefined();
    expect(faults.decide({ method: 'GET', path: '/servers', action: 'listServers' })).toEqual({ kind: 'timeout', afterMs: 0 });
  });

  it('matches paths by RegExp and method case-insensitively', () => {
    const faults = new FaultInjector();
    faults.add({ match: { method: 'get', path: /\/nodepool$/ }, fault: { kind: 'throttle', retryAfterSeconds: 2 } });
    expect(faults.decide({ method: 'GET', path: '/cloud/project/x/kube/y/nodepool' })?.kind).toBe('throttle');
    expect(faults.decide({ method: 'POST', path: '/cloud/project/x/kube/y/nodepool' })).toBeUndefined();
  });

  it('applies capacity faults only to requests that launch an instance type', () => {
    const faults = new FaultInjector();
    faults.add({ match: { instanceType: 'b3-8', zone: 'eu-west-par-a' }, fault: { kind: 'out-of-stock' } });
    expect(faults.decide({ method: 'GET', path: '/flavors' })).toBeUndefined();
    expect(faults.decide({ method: 'POST', path: '/nodepool', instanceType: 'b3-8', zone: 'eu-west-par-b' })).toBeUndefined();
    expect(faults.decide({ method: 'POST', path: '/nodepool', instanceType: 'b3-8', zone: 'eu-west-par-a' })).toEqual({
      kind: 'out-of-stock',
    });
  });

  it('fires probabilistic rules reproducibly for a seed, near the asked rate', () => {
    const run = (seed: number): boolean[] => {
      const faults = new FaultInjector(seed);
      faults.add({ fault: { kind: 'server-error', status: 500 }, probability: 0.3 });
      return Array.from({ length: 2_000 }, () => faults.decide({ method: 'GET', path: '/' }) !== undefined);
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    const rate = first.filter(Boolean).length / first.length;
    expect(rate).toBeGreaterThan(0.25);
    expect(rate).toBeLessThan(0.35);
  });

  it('removes and clears rules', () => {
    const faults = new FaultInjector();
    const id = faults.add({ fault: { kind: 'slow', delayMs: 10 } });
    faults.remove(id);
    expect(faults.decide({ method: 'GET', path: '/' })).toBeUndefined();
    faults.add({ fault: { kind: 'timeout', afterMs: 10 } });
    faults.clear();
    expect(faults.decide({ method: 'GET', path: '/' })).toBeUndefined();
  });
});

describe('CallLog', () => {
  it('counts records by method, action and path', () => {
    const log = new CallLog();
    log.add({ at: 1, method: 'POST', path: '/api/v1/CreateVms', action: 'CreateVms', status: 200 });
    log.add({ at: 2, method: 'POST', path: '/api/v1/ReadVms', action: 'ReadVms', status: 500, fault: 'server-error' });
    expect(log.count()).toBe(2);
    expect(log.count({ action: 'ReadVms' })).toBe(1);
    expect(log.count({ path: /Vms$/ })).toBe(2);
    expect(log.count({ method: 'GET' })).toBe(0);
    log.clear();
    expect(log.count()).toBe(0);
  });
});
