// The chaos suite's invariant checker on hand-built worlds: each rule is shown to catch its violation (and to
// stay quiet on a healthy world), so a chaos run that finds nothing means nothing was there to find.
import { describe, expect, it } from 'vitest';
import {
  convergedViolations,
  duplicates,
  instanceUse,
  leaks,
  type ObservedInstance,
  type ObservedWorld,
  podsNotRunning,
  unreadyClaims,
  wrongDeletions,
  wrongGpuRemovals,
} from './harness/invariants.js';

const instance = (id: string, over: Partial<ObservedInstance> = {}): ObservedInstance => ({
  id,
  providerID: `cloud:///${id}`,
  state: 'running',
  claimTag: `claim-${id}`,
  needsUserData: true,
  hasUserData: true,
  gpuIds: [],
  ...over,
});

/** Two claims, each on its running instance with a Ready node; two pods Running. */
function healthy(): ObservedWorld {
  return {
    instances: [instance('a'), instance('b')],
    gpus: [],
    claims: [
      { name: 'claim-a', providerID: 'cloud:///a', deleting: false, wantsSeparateGpu: false },
      { name: 'claim-b', providerID: 'cloud:///b', deleting: false, wantsSeparateGpu: false },
    ],
    nodes: [
      { name: 'node-a', providerID: 'cloud:///a', ready: true },
      { name: 'node-b', providerID: 'cloud:///b', ready: true },
    ],
    pods: [
      { name: 'web-1', phase: 'Running' },
      { name: 'web-2', phase: 'Running' },
    ],
  };
}

const kinds = (vs: { kind: string; subject: string }[]) => vs.map((v) => `${v.kind}:${v.subject}`).sort();

describe('chaos invariants', () => {
  it('find nothing wrong in a healthy converged world', () => {
    expect(convergedViolations(healthy())).toEqual([]);
    expect(wrongDeletions(healthy(), healthy())).toEqual([]);
  });

  it('catch a pod that is not Running', () => {
    const world = { ...healthy(), pods: [{ name: 'web-1', phase: 'Pending' }] };
    expect(kinds(podsNotRunning(world))).toEqual(['pod-not-running:web-1']);
  });

  it('catch two live instances tagged for one NodeClaim, and two NodeClaims naming one instance', () => {
    const world = healthy();
    world.instances.push(instance('a2', { claimTag: 'claim-a' }));
    world.claims.push({ name: 'claim-c', providerID: 'cloud:///b', deleting: false, wantsSeparateGpu: false });
    expect(kinds(duplicates(world))).toEqual(['duplicate-instance:claim-a', 'duplicate-instance:cloud:///b']);
  });

  it('do not count a duplicate that is already being deleted', () => {
    const world = healthy();
    world.instances.push(instance('a2', { claimTag: 'claim-a', state: 'deleting' }));
    expect(duplicates(world)).toEqual([]);
  });

  it('catch an instance no NodeClaim names (stopped ones and ones without an id included)', () => {
    const world = healthy();
    world.instances.push(instance('x', { state: 'stopped' }), instance('y', { providerID: undefined, state: 'pending' }));
    expect(kinds(leaks(world))).toEqual(['leaked-instance:x', 'leaked-instance:y']);
  });

  it('catch an instance whose only NodeClaim names another instance (the GC must see it as leaked)', () => {
    const world = healthy();
    world.instances.push(instance('a-extra', { claimTag: 'claim-a' }));
    expect(kinds(leaks(world))).toEqual(['leaked-instance:a-extra']);
  });

  it('catch a GPU linked to nothing, or to an instance that is gone, but not one on a live instance', () => {
    const world = healthy();
    world.instances.push(instance('g', { state: 'gone' }));
    world.gpus = [
      { id: 'fgpu-free', deleting: false },
      { id: 'fgpu-orphan', vmId: 'g', deleting: false },
      { id: 'fgpu-ok', vmId: 'a', deleting: false },
      { id: 'fgpu-going', deleting: true },
    ];
    expect(kinds(leaks(world))).toEqual(['leaked-gpu:fgpu-free', 'leaked-gpu:fgpu-orphan']);
  });

  it('catch a NodeClaim whose instance is stopped, lacks user data or its GPU, has no Ready node, or has no providerID', () => {
    const world = healthy();
    world.instances = [
      instance('a', { state: 'stopped' }),
      instance('b', { hasUserData: false }),
      instance('c'),
      instance('d'),
      instance('e'),
    ];
    world.claims = [
      { name: 'claim-a', providerID: 'cloud:///a', deleting: false, wantsSeparateGpu: false },
      { name: 'claim-b', providerID: 'cloud:///b', deleting: false, wantsSeparateGpu: false },
      { name: 'claim-c', providerID: 'cloud:///c', deleting: false, wantsSeparateGpu: true },
      { name: 'claim-d', providerID: 'cloud:///d', deleting: false, wantsSeparateGpu: false },
      { name: 'claim-e', deleting: false, wantsSeparateGpu: false },
    ];
    world.nodes = ['a', 'b', 'c', 'd'].map((id) => ({ name: `node-${id}`, providerID: `cloud:///${id}`, ready: id !== 'd' }));
    const found = unreadyClaims(world);
    expect(kinds(found)).toEqual([
      'claim-not-ready:claim-a',
      'claim-not-ready:claim-b',
      'claim-not-ready:claim-c',
      'claim-not-ready:claim-d',
      'claim-not-ready:claim-e',
    ]);
    expect(found.map((v) => v.detail).join('\n')).toMatch(
      /stopped, not running[\s\S]*no user data[\s\S]*no gpu linked[\s\S]*no Ready node[\s\S]*no providerID/,
    );
  });

  it('do not ask user data of an instance whose cloud takes none (MKS nodes)', () => {
    const world = healthy();
    world.instances = world.instances.map((i) => ({ ...i, needsUserData: false, hasUserData: false }));
    expect(unreadyClaims(world)).toEqual([]);
  });

  it('catch the deletion of an instance whose NodeClaim was live and whose node was Ready just before', () => {
    const after = healthy();
    after.instances[0] = instance('a', { state: 'deleting' });
    expect(kinds(wrongDeletions(healthy(), after))).toEqual(['wrong-deletion:a']);
    const gone = healthy();
    gone.instances = gone.instances.filter((i) => i.id !== 'b');
    expect(kinds(wrongDeletions(healthy(), gone))).toEqual(['wrong-deletion:b']);
  });

  it('accept the deletion of an instance whose NodeClaim was being deleted, whose node was not Ready, or that no NodeClaim named', () => {
    const before = healthy();
    before.claims[0] = { ...before.claims[0], deleting: true } as ObservedWorld['claims'][number];
    before.nodes[1] = { name: 'node-b', providerID: 'cloud:///b', ready: false };
    before.instances.push(instance('leak'));
    const after = { ...before, instances: before.instances.map((i) => ({ ...i, state: 'deleting' as const })) };
    expect(wrongDeletions(before, after)).toEqual([]);
  });

  it('catch a GPU deleted or detached from the instance of a live NodeClaim', () => {
    const before = healthy();
    before.gpus = [
      { id: 'fgpu-a', vmId: 'a', deleting: false },
      { id: 'fgpu-b', vmId: 'b', deleting: false },
    ];
    const after = { ...before, gpus: [{ id: 'fgpu-b', deleting: false }] };
    expect(kinds(wrongGpuRemovals(before, after))).toEqual(['wrong-gpu-removal:fgpu-a', 'wrong-gpu-removal:fgpu-b']);
    expect(wrongGpuRemovals(before, before)).toEqual([]);
  });

  it('accept GPUs removed with a NodeClaim being deleted, from an instance no NodeClaim names, or already going', () => {
    const before = healthy();
    before.claims[0] = { ...before.claims[0], deleting: true } as ObservedWorld['claims'][number];
    before.instances.push(instance('leak'));
    before.gpus = [
      { id: 'fgpu-a', vmId: 'a', deleting: false },
      { id: 'fgpu-leak', vmId: 'leak', deleting: false },
      { id: 'fgpu-going', vmId: 'b', deleting: true },
      { id: 'fgpu-free', deleting: false },
    ];
    expect(wrongGpuRemovals(before, { ...before, gpus: [] })).toEqual([]);
  });

  it('count the live instances and those whose node runs a workload pod', () => {
    const world = healthy();
    world.instances.push(instance('idle'), instance('gone', { state: 'gone' }));
    world.nodes.push({ name: 'node-idle', providerID: 'cloud:///idle', ready: true });
    world.pods = [
      { name: 'web-1', phase: 'Running', nodeName: 'node-a' },
      { name: 'web-2', phase: 'Running', nodeName: 'node-a' },
      { name: 'web-3', phase: 'Pending' },
    ];
    expect(instanceUse(world)).toEqual({ instances: 3, hostingPods: 1 });
  });
});
