import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { nextPodEvent } from '../../../../src/domain/disruption/index.js';
import * as builders from '../../../builders.js';

const T0 = Date.UTC(2026, 0, 5, 9);
const at = (seconds: number): number => T0 + seconds * 1000;
const iso = (ms: number): string => new Date(ms).toISOString();

function running(name: string, startedAt: number): V1Pod {
  return builders.pod({
    name,
    nodeName: 'n',
    metadata: { uid: `uid-${name}`, creationTimestamp: new Date(startedAt - 1000) },
    status: { phase: 'Running', startTime: new Date(startedAt) },
  });
}

/** Its deletion requested at `requestedAt` with `grace` seconds to go: the API server's deletionTimestamp is the end of the grace. */
function terminating(pod: V1Pod, requestedAt: number, grace = 30): V1Pod {
  const deletionTimestamp = iso(requestedAt + grace * 1000) as unknown as Date;
  return { ...pod, metadata: { ...pod.metadata, deletionTimestamp, deletionGracePeriodSeconds: grace } };
}

describe('nextPodEvent (when consolidateAfter starts counting)', () => {
  it('on a node seen for the first time, reads the newest arrival off its pods', () => {
    expect(nextPodEvent(undefined, [running('a', at(10)), running('b', at(40))], at(100)).at).toBe(at(40));
  });

  it('on a node seen for the first time, a pod being deleted counts from its deletion request, not its deletionTimestamp', () => {
    const pods = [running('a', at(10)), terminating(running('b', at(20)), at(70))];
    expect(nextPodEvent(undefined, pods, at(80)).at).toBe(at(70));
  });

  it('on an empty node seen for the first time with nothing recorded, knows no event (initialization counts instead)', () => {
    expect(nextPodEvent(undefined, [], at(100)).at).toBe(0);
  });

  it('keeps the time while the node serves the same pods, however long', () => {
    const first = nextPodEvent(undefined, [running('a', at(10))], at(20));
    expect(nextPodEvent(first, [running('a', at(10))], at(500)).at).toBe(at(10));
  });

  it('restarts at now when a pod arrives', () => {
    const first = nextPodEvent(undefined, [running('a', at(10))], at(20));
    expect(nextPodEvent(first, [running('a', at(10)), builders.pod({ name: 'b', nodeName: 'n' })], at(60)).at).toBe(at(60));
  });

  it('restarts at now when the last pod starts terminating: the node is empty from then on', () => {
    const first = nextPodEvent(undefined, [running('a', at(10))], at(20));
    const leaving = nextPodEvent(first, [terminating(running('a', at(10)), at(58))], at(60));
    expect(leaving.at).toBe(at(60));
    // Gone 30 s later: it had already left, the clock keeps running from its deletion.
    expect(nextPodEvent(leaving, [], at(90)).at).toBe(at(60));
  });

  it('restarts at now when a pod finishes (Succeeded or Failed) or is deleted at once', () => {
    const first = nextPodEvent(undefined, [running('a', at(10)), running('b', at(10))], at(20));
    const done = { ...running('a', at(10)), status: { phase: 'Succeeded' } };
    const finished = nextPodEvent(first, [done, running('b', at(10))], at(30));
    expect(finished.at).toBe(at(30));
    expect(nextPodEvent(finished, [], at(45)).at).toBe(at(45));
  });

  it('never goes back before the time the NodeClaim carries, which a restart or a new leader reads', () => {
    expect(nextPodEvent(undefined, [], at(100), at(95)).at).toBe(at(95));
    const first = nextPodEvent(undefined, [running('a', at(10))], at(20));
    expect(nextPodEvent(first, [running('a', at(10))], at(30), at(25)).at).toBe(at(25));
    expect(nextPodEvent(first, [running('a', at(10))], at(30), at(5)).at).toBe(at(10));
  });
});
