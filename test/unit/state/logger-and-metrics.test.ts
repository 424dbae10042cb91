import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createMetrics } from '../../../src/metrics/registry.js';
import { FakeClock } from '../../../src/util/clock.js';
import { createLogger, InvalidLogLevelError, parseLogLevel } from '../../../src/util/logger.js';

describe('structured JSON logger', () => {
  it('writes one JSON object per line with the clock time, level, message and fields', () => {
    const lines: string[] = [];
    const clock = new FakeClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const logger = createLogger({ clock, sink: (l) => lines.push(l), level: 'info' });
    logger.debug('dropped');
    const child = logger.child({ controller: 'provisioner', nodepool: 'default' });
    child.info('launched nodeclaim', { nodeclaim: 'default-abc', nodepool: 'gpu', skipped: undefined });
    child.error('launching nodeclaim', { error: new Error('creating server: 503', { cause: new Error('upstream') }) });
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        level: 'info',
        time: '2026-01-02T03:04:05.000Z',
        msg: 'launched nodeclaim',
        controller: 'provisioner',
        nodepool: 'gpu',
        nodeclaim: 'default-abc',
      },
      {
        level: 'error',
        time: '2026-01-02T03:04:05.000Z',
        msg: 'launching nodeclaim',
        controller: 'provisioner',
        nodepool: 'default',
        error: { name: 'Error', message: 'creating server: 503', cause: { name: 'Error', message: 'upstream' } },
      },
    ]);
  });

  it('survives circular fields and parses levels strictly', () => {
    const lines: string[] = [];
    const logger = createLogger({ clock: new FakeClock(), sink: (l) => lines.push(l) });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    logger.warn('odd', { loop });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'warn', msg: 'odd', logError: 'fields not serializable' });
    expect(parseLogLevel('DEBUG')).toBe('debug');
    expect(() => parseLogLevel('verbose')).toThrow(InvalidLogLevelError);
    expect(() => parseLogLevel('verbose')).toThrow('parsing log level: "verbose" is not accepted, accepted: debug, info, warn, error');
  });
});

describe('createMetrics', () => {
  it("defines Karpenter's metric names in the registry passed in, once", async () => {
    const registry = new Registry();
    const metrics = createMetrics(registry);
    expect(createMetrics(registry).nodeClaimsCreated).toBe(metrics.nodeClaimsCreated);
    metrics.nodeClaimsCreated.inc({ reason: 'provisioned', nodepool: 'default', min_values_relaxed: 'false' });
    metrics.nodesTerminated.inc({ nodepool: 'default', zone: 'fr-par-1' });
    metrics.schedulingDuration.observe({ controller: 'provisioner' }, 0.2);
    metrics.cloudProvider.duration.observe({ controller: 'provisioning', method: 'Create', provider: 'scaleway' }, 1.2);
    const text = await registry.metrics();
    for (const name of [
      'karpenter_nodeclaims_created_total{reason="provisioned",nodepool="default",min_values_relaxed="false"} 1',
      'karpenter_nodes_terminated_total{nodepool="default",zone="fr-par-1"} 1',
      'karpenter_scheduler_scheduling_duration_seconds_bucket{le="0.25",controller="provisioner"} 1',
      'karpenter_cloudprovider_duration_seconds_count{controller="provisioning",method="Create",provider="scaleway"} 1',
      '# TYPE karpenter_pods_state gauge',
      '# TYPE karpenter_voluntary_disruption_decisions_total counter',
      '# TYPE karpenter_nodepools_usage gauge',
      '# TYPE karpenter_cluster_state_synced gauge',
    ]) {
      expect(text).toContain(name);
    }
    // Nothing leaks into another registry.
    expect((await new Registry().metrics()).trim()).toBe('');
  });
});
