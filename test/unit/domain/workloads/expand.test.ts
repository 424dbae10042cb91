import { describe, expect, it } from 'vitest';
import { daemonSetPod, expandWorkload, WorkloadError } from '../../../../src/domain/workloads/index.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };

describe('expandWorkload', () => {
  it.each([
    ['Deployment', { replicas: 3, template }, 3],
    ['StatefulSet', { replicas: 2, template }, 2],
    ['ReplicaSet', { template }, 1],
    ['Job', { parallelism: 4, completions: 2, template }, 2],
    ['Job', { parallelism: 3, template }, 3],
    ['Deployment', { replicas: 0, template }, 0],
  ])('%s %j gives %i pods named <workload>-<i>', (kind, spec, count) => {
    const pods = expandWorkload({ kind, metadata: { name: 'w', namespace: 'ns' }, spec });
    expect(pods.map((p) => p.metadata?.name)).toEqual(Array.from({ length: count }, (_, i) => `w-${i}`));
    for (const p of pods) {
      expect(p.metadata?.namespace).toBe('ns');
      expect(p.metadata?.labels).toEqual({ app: 'web' });
      expect(p.spec?.containers[0]?.name).toBe('c');
    }
  });

  it('defaults the namespace and copies the spec per pod', () => {
    const pods = expandWorkload({ kind: 'Deployment', metadata: { name: 'w' }, spec: { replicas: 2, template } });
    expect(pods[0]?.metadata?.namespace).toBe('default');
    expect(pods[0]?.spec).not.toBe(pods[1]?.spec);
  });

  it.each([
    [{ kind: 'Deployment', metadata: { name: 'w' }, spec: { replicas: 1 } }, /spec.template.spec.containers is missing/],
    [{ kind: 'Deployment', metadata: { name: 'w' }, spec: { replicas: -1, template } }, /replica count -1/],
    [{ kind: 'CronJob', metadata: { name: 'w' }, spec: {} }, /kind "CronJob" is not accepted/],
    [{ kind: 'Deployment', metadata: {}, spec: { template } }, /metadata.name is missing/],
  ])('rejects %j with a WorkloadError', (workload, message) => {
    expect(() => expandWorkload(workload)).toThrow(WorkloadError);
    expect(() => expandWorkload(workload)).toThrow(message);
  });

  it('turns a DaemonSet into its template pod', () => {
    const pod = daemonSetPod({ kind: 'DaemonSet', metadata: { name: 'ds', namespace: 'kube-system' }, spec: { template } });
    expect(pod.metadata).toMatchObject({ name: 'ds', namespace: 'kube-system', labels: { app: 'web' } });
    expect(() => daemonSetPod({ kind: 'DaemonSet', metadata: { name: 'ds' }, spec: {} })).toThrow(/DaemonSet ds/);
  });
});
