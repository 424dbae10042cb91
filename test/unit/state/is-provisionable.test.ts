import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isProvisionable, notProvisionableReason, type PodForProvisioning } from '../../../src/domain/provisioning/index.js';

const unschedulable = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' };

function pending(extra: { metadata?: object; spec?: object; status?: object } = {}): PodForProvisioning {
  return {
    metadata: { name: 'p', namespace: 'default', ...extra.metadata },
    spec: { containers: [{ name: 'c' }], ...extra.spec },
    status: { phase: 'Pending', conditions: [unschedulable], ...extra.status },
  } as PodForProvisioning;
}

describe('isProvisionable (upstream IsProvisionable)', () => {
  it.each([
    ['unschedulable pending pod', pending(), undefined],
    ['bound to a node', pending({ spec: { nodeName: 'n1' } }), 'scheduled'],
    ['not tried by the scheduler yet', pending({ status: { conditions: [] } }), 'not-marked-unschedulable'],
    [
      'PodScheduled=False for another reason',
      pending({ status: { conditions: [{ ...unschedulable, reason: 'SchedulerError' }] } }),
      'not-marked-unschedulable',
    ],
    ['preempting', pending({ status: { nominatedNodeName: 'n1' } }), 'preempting'],
    [
      'DaemonSet pod',
      pending({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u' }] } }),
      'daemonset-pod',
    ],
    [
      'ReplicaSet pod',
      pending({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u' }] } }),
      undefined,
    ],
    [
      'static pod mirror',
      pending({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }] } }),
      'static-pod',
    ],
    ['terminating', pending({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }), 'terminating'],
    ['failed', pending({ status: { phase: 'Failed' } }), 'terminal'],
    ['scheduling gated', pending({ spec: { schedulingGates: [{ name: 'x' }] } }), 'scheduling-gated'],
  ])('%s', (_name, pod, reason) => {
    expect(notProvisionableReason(pod)).toBe(reason);
    expect(isProvisionable(pod)).toBe(reason === undefined);
  });

  it('a pod with a nodeName is never provisionable, whatever else it carries', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.boolean(), fc.option(fc.string()), (nodeName, gated, nominated) => {
        const pod = pending({
          spec: { nodeName, ...(gated ? { schedulingGates: [{ name: 'g' }] } : {}) },
          status: nominated === null ? {} : { nominatedNodeName: nominated },
        });
        return !isProvisionable(pod);
      }),
    );
  });
});
