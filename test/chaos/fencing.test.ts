// The writes-after-lease-loss judge of the chaos harness, on hand-built audit logs.
import { describe, expect, it } from 'vitest';
import { type AuditedWrite, writesAfterLeaseLoss } from './harness/fencing.js';

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/karpenter/leases/karpenter-eu-leader-election';
const rules = { leasePath, leaseDurationMs: 3_000, replicas: ['a', 'b'] };
const claims = '/apis/karpenter.sh/v1/nodeclaims';
const w = (receivedAt: number, username: string, path: string, method = 'POST', code = 201): AuditedWrite => ({
  receivedAt,
  username,
  path,
  method,
  code,
});

describe('writesAfterLeaseLoss', () => {
  it('accepts writes within a lease duration of the writer’s own renewal', () => {
    const log = [
      w(0, 'a', '/apis/coordination.k8s.io/v1/namespaces/karpenter/leases'),
      w(1_000, 'a', claims),
      w(2_000, 'a', leasePath, 'PUT', 200),
      w(4_900, 'a', claims),
    ];
    expect(writesAfterLeaseLoss(log, rules)).toEqual([]);
  });

  it('flags a write past the lease duration, and one after another replica took the lease', () => {
    const log = [w(0, 'a', leasePath, 'PUT', 200), w(3_500, 'b', leasePath, 'PUT', 200), w(3_600, 'a', claims), w(3_700, 'b', claims)];
    expect(writesAfterLeaseLoss(log, rules).map((v) => v.detail)).toEqual([
      `a sent POST ${claims} (answered 201) after losing the lease: another replica took the lease 100ms before (last Lease write by b)`,
    ]);
    expect(writesAfterLeaseLoss([w(0, 'a', leasePath, 'PUT', 200), w(3_001, 'a', claims)], rules)[0]?.detail).toContain(
      'its lease was last renewed 3001ms before, past the 3000ms lease duration',
    );
  });

  it('flags a replica that never held the lease; ignores failed Lease writes and writers that are not replicas', () => {
    const log = [w(0, 'a', leasePath, 'PUT', 200), w(100, 'b', leasePath, 'PUT', 409), w(200, 'b', claims), w(300, 'admin', claims)];
    expect(writesAfterLeaseLoss(log, rules).map((v) => v.subject)).toEqual([`b POST ${claims} @200`]);
  });
});
