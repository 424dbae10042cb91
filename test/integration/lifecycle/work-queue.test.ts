import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../../src/controllers/nodeclaim/lifecycle/work-queue.js';

describe('lifecycle WorkQueue', () => {
  it('hands a key out once while in progress, keeps its earliest due time, and respects the concurrency limit', () => {
    const q = new WorkQueue();
    q.add('a', 100);
    q.add('a', 50);
    q.add('b', 200);
    q.add('c', 10);
    expect(q.takeDue(60, 10)).toEqual(['a', 'c']);
    q.add('a', 0); // re-added while in progress: not handed out again until done
    expect(q.takeDue(60, 10)).toEqual([]);
    expect(q.nextDueAt()).toBe(200);
    q.done('a');
    expect(q.nextDueAt()).toBe(0);
    const first = q.takeDue(300, 2); // c still active: 2 in progress at most
    expect(first).toHaveLength(1);
    q.done('c');
    const second = q.takeDue(300, 2);
    expect([...first, ...second].sort()).toEqual(['a', 'b']);
    expect(q.activeCount).toBe(2);
    expect(q.nextDueAt()).toBeUndefined();
  });
});
