import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';

const manifest = (name: string): string => readFileSync(new URL(`../../../manifests/scheduler/${name}`, import.meta.url), 'utf8');

interface Extender {
  urlPrefix: string;
  filterVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  nodeCacheCapable?: boolean;
  ignorable?: boolean;
  httpTimeout?: string;
  enableHTTPS?: boolean;
  bindVerb?: string;
  tlsConfig?: { serverName?: string; caData?: string; caFile?: string };
}
interface SchedulerConfig {
  apiVersion: string;
  kind: string;
  extenders: Extender[];
}

const snippet = parse(manifest('kube-scheduler-config.yaml')) as SchedulerConfig;
const configMap = parseAllDocuments(manifest('second-scheduler.yaml'))
  .map((d) => d.toJS() as { kind: string; data?: Record<string, string> })
  .find((d) => d.kind === 'ConfigMap');
const secondScheduler = parse(configMap?.data?.['config.yaml'] ?? '') as SchedulerConfig;

describe.each([
  ['kube-scheduler-config.yaml', snippet],
  ['second-scheduler.yaml', secondScheduler],
])('%s', (_file, config) => {
  const extender = config.extenders[0] as Extender;

  it('is a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration with one extender', () => {
    expect(config.apiVersion).toBe('kubescheduler.config.k8s.io/v1');
    expect(config.kind).toBe('KubeSchedulerConfiguration');
    expect(config.extenders).toHaveLength(1);
  });

  it('points at the server routes with the settings the extender relies on', () => {
    expect(extender.urlPrefix).toMatch(/^https:\/\/[^/]+:8444\/scheduler$/);
    expect([extender.filterVerb, extender.prioritizeVerb]).toEqual(['filter', 'prioritize']);
    expect(extender.nodeCacheCapable).toBe(true);
    expect(extender.ignorable).toBe(true);
    expect(extender.bindVerb).toBeUndefined();
  });

  it('passes kube-scheduler validation: a prioritizeVerb needs a positive weight, the timeout is a duration', () => {
    expect(Number.isInteger(extender.weight) && (extender.weight as number) > 0).toBe(true);
    expect(extender.httpTimeout).toMatch(/^\d+(ms|s)$/);
  });

  it('verifies the server certificate', () => {
    expect(extender.enableHTTPS).toBe(true);
    expect(extender.tlsConfig?.serverName).toBe('karpenter-eu.karpenter.svc');
    expect(extender.tlsConfig && ('caData' in extender.tlsConfig || 'caFile' in extender.tlsConfig)).toBe(true);
  });
});
