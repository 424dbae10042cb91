import { describe, expect, it } from 'vitest';
import { SchedulingQueue } from '../../../src/testbed/cluster/scheduler/scheduling-queue.js';

describe('simulated kube-scheduler queue', () => {
  it('a failed pod waits for a cluster event after the failure (or 5 minutes), then its backoff', () => {
    const queue = new SchedulingQueue();
    queue.markFailed('default/web', 0);
    expect(queue.ready('default/web', 10_000)).toBe(false);
    queue.moveAllOnEvent();
    expect(queue.ready('default/web', 500)).toBe(false);
    expect(queue.ready('default/web', 1_000)).toBe(true);
  });

  it('an event that arrived while the attempt ran is not lost (moveRequestCycle): the pod is retried after its backoff', () => {
    const queue = new SchedulingQueue();
    const mark = queue.eventMark();
    queue.moveAllOnEvent(); // the node became ready while the scheduler was still deciding about this pod
    queue.markFailed('default/web', 0, mark);
    expect(queue.ready('default/web', 1_000)).toBe(true);
    expect(queue.nextWake(0)).toBe(1_000);
  });
});
