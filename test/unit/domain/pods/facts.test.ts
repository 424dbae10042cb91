import type { V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isDaemonSetPod, isMirrorPod, isReschedulable, isTerminal, isTerminating, podKey } from '../../../../src/domain/pods/index.js';

function owned(...refs: Partial<V1OwnerReference>[]): V1Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', ownerReferences: refs.map((r) => ({ name: 'o', uid: 'u', ...r }) as V1OwnerReference) },
  };
}

// The cases where the three former copies answered differently are marked with the copy that was wrong.
describe('pod facts: one reading of ownership, shared by provisioning, disruption, termination and the extender', () => {
  it.each<[string, V1Pod, boolean]>([
    ['apps/v1 DaemonSet, controller', owned({ apiVersion: 'apps/v1', kind: 'DaemonSet', controller: true }), true],
    ['apps/v1 DaemonSet without controller: true (the extender copy said no)', owned({ apiVersion: 'apps/v1', kind: 'DaemonSet' }), true],
    [
      'DaemonSet of another apiVersion (the disruption copy said yes)',
      owned({ apiVersion: 'extensions/v1beta1', kind: 'DaemonSet', controller: true }),
      false,
    ],
    ['ReplicaSet', owned({ apiVersion: 'apps/v1', kind: 'ReplicaSet', controller: true }), false],
    ['second owner is the DaemonSet', owned({ apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'apps/v1', kind: 'DaemonSet' }), true],
    ['no owner', { metadata: { name: 'p' } }, false],
    ['no metadata', {}, false],
  ])('isDaemonSetPod: %s', (_case, pod, expected) => {
    expect(isDaemonSetPod(pod)).toBe(expected);
  });

  it.each<[string, V1Pod, boolean]>([
    ['owned by its v1 Node (the disruption copy said no)', owned({ apiVersion: 'v1', kind: 'Node', controller: true }), true],
    [
      'mirror annotation only (the provisioning copy said no)',
      { metadata: { annotations: { 'kubernetes.io/config.mirror': 'abc' } } },
      true,
    ],
    ['mirror annotation with an empty value', { metadata: { annotations: { 'kubernetes.io/config.mirror': '' } } }, true],
    ['Node owner of another apiVersion', owned({ apiVersion: 'example.com/v1', kind: 'Node' }), false],
    ['ordinary pod', owned({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }), false],
  ])('isMirrorPod: %s', (_case, pod, expected) => {
    expect(isMirrorPod(pod)).toBe(expected);
  });

  it.each<[string | undefined, boolean]>([
    ['Succeeded', true],
    ['Failed', true],
    ['Running', false],
    ['Pending', false],
    ['Unknown', false],
    [undefined, false],
  ])('isTerminal: phase %s', (phase, expected) => {
    expect(isTerminal({ status: phase === undefined ? {} : { phase } })).toBe(expected);
  });

  it.each<[string, V1Pod, boolean]>([
    ['deletionTimestamp set', { metadata: { deletionTimestamp: new Date(0) } }, true],
    [
      'deletionTimestamp null (the disruption copy counted it as terminating)',
      { metadata: { deletionTimestamp: null as unknown as Date } },
      false,
    ],
    ['no deletionTimestamp', { metadata: {} }, false],
  ])('isTerminating: %s', (_case, pod, expected) => {
    expect(isTerminating(pod)).toBe(expected);
  });

  it.each<[string, V1Pod, string]>([
    ['namespaced', { metadata: { namespace: 'team-a', name: 'web-0' } }, 'team-a/web-0'],
    ['empty namespace (the scheduling copy kept it empty)', { metadata: { namespace: '', name: 'web-0' } }, 'default/web-0'],
    ['no namespace', { metadata: { name: 'web-0' } }, 'default/web-0'],
    ['no name', { metadata: { namespace: 'team-a' } }, 'team-a/'],
  ])('podKey: %s', (_case, pod, expected) => {
    expect(podKey(pod)).toBe(expected);
  });

  it.each<[string, V1Pod, boolean]>([
    ['running ReplicaSet pod', { ...owned({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }), status: { phase: 'Running' } }, true],
    ['bare pod', { metadata: { name: 'p' }, status: { phase: 'Running' } }, true],
    ['DaemonSet pod', { ...owned({ apiVersion: 'apps/v1', kind: 'DaemonSet', controller: true }), status: { phase: 'Running' } }, false],
    ['mirror pod owned by its Node', { ...owned({ apiVersion: 'v1', kind: 'Node' }), status: { phase: 'Running' } }, false],
    ['succeeded Job pod', { ...owned({ apiVersion: 'batch/v1', kind: 'Job' }), status: { phase: 'Succeeded' } }, false],
    ['terminating pod', { metadata: { name: 'p', deletionTimestamp: new Date(0) }, status: { phase: 'Running' } }, false],
  ])('isReschedulable: %s', (_case, pod, expected) => {
    expect(isReschedulable(pod)).toBe(expected);
  });
});
