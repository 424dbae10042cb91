import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreV1Event } from '@kubernetes/client-node';
import { createKube, EventRecorder, type Kube, Resources } from '../../../src/kube/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { createLogger } from '../../../src/util/logger.js';
import { startClusterWithCrds } from './kube-fixtures.js';

let server: ApiServer;
let kube: Kube;
let clock: FakeClock;

beforeEach(async () => {
  server = await startClusterWithCrds();
  kube = createKube(server.kubeConfig);
  clock = new FakeClock();
});

afterEach(async () => {
  await server.close();
});

const pod = { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'u-1' };
const nodeClaim = { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', name: 'default-abc', uid: 'u-2' };

async function events(): Promise<CoreV1Event[]> {
  return (await kube.list<CoreV1Event>(Resources.Event)).items.sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
}

describe('EventRecorder', () => {
  it('merges repeats of one reason on one object into one Event with a count', async () => {
    const recorder = new EventRecorder({ kube, clock, component: 'karpenter', instance: 'karpenter-0' });
    await recorder.publish({ involvedObject: pod, type: 'Warning', reason: 'FailedScheduling', message: 'no instance type fits' });
    clock.step(1_000);
    await recorder.publish({ involvedObject: pod, type: 'Warning', reason: 'FailedScheduling', message: 'no instance type fits' });
    clock.step(1_000);
    await recorder.publish({ involvedObject: pod, type: 'Warning', reason: 'FailedScheduling', message: 'still no instance type fits' });
    const [event, ...rest] = await events();
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'Warning',
      reason: 'FailedScheduling',
      count: 3,
      message: 'still no instance type fits',
      involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'u-1' },
      source: { component: 'karpenter', host: 'karpenter-0' },
      firstTimestamp: '2026-01-01T00:00:00.000Z',
      lastTimestamp: '2026-01-01T00:00:02.000Z',
    });
  });

  it('keeps different reasons and objects apart; cluster-scoped objects go to default', async () => {
    const recorder = new EventRecorder({ kube, clock, component: 'karpenter' });
    await Promise.all([
      recorder.publish({ involvedObject: pod, type: 'Warning', reason: 'FailedScheduling', message: 'a' }),
      recorder.publish({ involvedObject: pod, type: 'Normal', reason: 'Nominated', message: 'b' }),
      recorder.publish({ involvedObject: nodeClaim, type: 'Normal', reason: 'Launched', message: 'c' }),
    ]);
    const all = await events();
    expect(all.map((e) => `${e.metadata?.namespace}/${e.involvedObject.name}/${e.reason}/${e.count}`).sort()).toEqual([
      'default/default-abc/Launched/1',
      'default/web-1/FailedScheduling/1',
      'default/web-1/Nominated/1',
    ]);
  });

  it('orders concurrent repeats so none is lost, and starts a new Event after the window', async () => {
    const recorder = new EventRecorder({ kube, clock, component: 'karpenter', dedupWindowMs: 60_000 });
    const record = { involvedObject: nodeClaim, type: 'Normal' as const, reason: 'GarbageCollected', message: 'instance gone' };
    await Promise.all([recorder.publish(record), recorder.publish(record), recorder.publish(record)]);
    expect((await events()).map((e) => e.count)).toEqual([3]);
    clock.step(60_001);
    await recorder.publish(record);
    expect((await events()).map((e) => e.count).sort()).toEqual([1, 3]);
  });

  it('logs a failed write and resolves anyway', async () => {
    const lines: string[] = [];
    const dead = createKube((await import('../../../src/testbed/cluster/apiserver/kubeconfig.js')).kubeConfigFor('http://127.0.0.1:1'));
    const recorder = new EventRecorder({
      kube: dead,
      clock,
      component: 'karpenter',
      logger: createLogger({ clock, sink: (l) => lines.push(l) }),
    });
    await expect(recorder.publish({ involvedObject: pod, type: 'Normal', reason: 'X', message: 'y' })).resolves.toBeUndefined();
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 'WARN',
      message: 'writing event failed',
      reason: 'X',
      errorType: 'KubeUnreachable',
    });
  });
});
