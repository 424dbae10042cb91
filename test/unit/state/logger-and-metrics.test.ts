import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createMetrics } from '../../../src/metrics/registry.js';
import { FakeClock } from '../../../src/util/clock.js';
import { createLogger, credentialValuesOf, InvalidLogLevelError, parseLogLevel } from '../../../src/util/logger.js';

describe('structured JSON logger', () => {
  it("writes upstream Karpenter's keys: level, time, logger, message, objects as {Kind: {name}}, errors with their causes", () => {
    const lines: string[] = [];
    const clock = new FakeClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const logger = createLogger({ clock, sink: (l) => lines.push(l), level: 'info' });
    logger.debug('dropped');
    const child = logger.child({ controller: 'provisioner', nodepool: 'default' });
    child.info('launched nodeclaim', { nodeClaim: 'default-abc', nodePool: 'gpu', node: 'n-1', pod: 'ns/web-0', skipped: undefined });
    child.error('launching nodeclaim', { error: new Error('creating server: 503', { cause: new Error('upstream') }) });
    logger.child({ logger: 'webhook' }).warn('plain', { error: new TypeError('bad') });
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        level: 'INFO',
        time: '2026-01-02T03:04:05.000Z',
        logger: 'controller',
        message: 'launched nodeclaim',
        controller: 'provisioner',
        NodePool: { name: 'gpu' },
        NodeClaim: { name: 'default-abc' },
        Node: { name: 'n-1' },
        Pod: { name: 'web-0', namespace: 'ns' },
      },
      {
        level: 'ERROR',
        time: '2026-01-02T03:04:05.000Z',
        logger: 'controller',
        message: 'launching nodeclaim',
        controller: 'provisioner',
        NodePool: { name: 'default' },
        error: 'creating server: 503: upstream',
        errorType: 'Error',
        errorCauses: [
          { error: 'creating server: 503', type: 'Error' },
          { error: 'upstream', type: 'Error' },
        ],
      },
      { level: 'WARN', time: '2026-01-02T03:04:05.000Z', logger: 'webhook', message: 'plain', error: 'bad', errorType: 'TypeError' },
    ]);
  });

  it('redacts credential-shaped fields at any depth and bearer tokens or JWTs in any string, whoever logs them', () => {
    const lines: string[] = [];
    const logger = createLogger({ clock: new FakeClock(), sink: (l) => lines.push(l) });
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJl';
    logger.info('calling with Authorization: Bearer abc.def-123', {
      password: 'p4ss',
      applicationSecret: 'ovh-app-secret',
      consumer_key: 'ovh-ck',
      'X-Auth-Token': 'scw-token',
      config: { secretKey: 'osc-sk', accessKey: 'osc-ak', region: 'eu-west-2', nested: [{ Authorization: 'Basic dXNlcjpwYXNz' }] },
      header: `Bearer ${jwt}`,
      url: `https://api.example/?jwt=${jwt}`,
      error: new Error('request failed', { cause: new Error('401 for token Bearer zzz') }),
    });
    const line = lines[0] ?? '';
    for (const secret of ['p4ss', 'ovh-app-secret', 'ovh-ck', 'scw-token', 'osc-sk', 'osc-ak', 'dXNlcjpwYXNz', jwt, 'abc.def-123', 'zzz'])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      message: 'calling with Authorization: Bearer [REDACTED]',
      password: '[REDACTED]',
      applicationSecret: '[REDACTED]',
      consumer_key: '[REDACTED]',
      'X-Auth-Token': '[REDACTED]',
      config: { secretKey: '[REDACTED]', accessKey: '[REDACTED]', region: 'eu-west-2', nested: [{ Authorization: '[REDACTED]' }] },
      header: 'Bearer [REDACTED]',
      url: 'https://api.example/?jwt=[REDACTED]',
      error: 'request failed: 401 for token Bearer [REDACTED]',
    });
  });

  it('removes the credential values the process holds wherever they are quoted', () => {
    const env = {
      SCW_SECRET_KEY: '3f6c1b9e-2a4d-4c8b',
      OVH_CONSUMER_KEY: 'ck-0123456789',
      OVH_ENDPOINT: 'ovh-eu',
      HOSTNAME: 'karpenter-eu-0',
    };
    expect(credentialValuesOf(env)).toEqual(['3f6c1b9e-2a4d-4c8b', 'ck-0123456789']);
    const lines: string[] = [];
    const logger = createLogger({ clock: new FakeClock(), sink: (l) => lines.push(l), secrets: credentialValuesOf(env) });
    logger.error('cloud said: key 3f6c1b9e-2a4d-4c8b refused', {
      error: new Error('denied', { cause: new Error('ck-0123456789 unknown') }),
    });
    expect(lines[0]).not.toMatch(/3f6c1b9e-2a4d-4c8b|ck-0123456789/);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      message: 'cloud said: key [REDACTED] refused',
      error: 'denied: [REDACTED] unknown',
    });
  });

  it('keeps a field named like a key of the line beside it, survives circular fields and parses levels strictly', () => {
    const lines: string[] = [];
    const logger = createLogger({ clock: new FakeClock(), sink: (l) => lines.push(l) });
    logger.info('ready', { message: 'detail', level: 3 });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'INFO', message: 'ready', messageField: 'detail', levelField: 3 });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    logger.warn('odd', { loop });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ level: 'WARN', message: 'odd', logError: 'fields not serializable' });
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
