/**
 * Writes after lease loss, judged on the API server's audit log: every write a replica's token made, with the
 * time it arrived. A replica may write only while its lease holds: within a lease duration of a successful
 * write of its own to the Lease, and never after another replica wrote the Lease since (a takeover). Its own
 * Lease writes are left out: the resourceVersion they carry already makes a stale one fail.
 */
import type { Violation } from './invariants.js';

export interface AuditedWrite {
  receivedAt: number;
  method: string;
  path: string;
  username: string;
  code: number;
}

export interface FencingRules {
  /** The Lease's path on the API server (`/apis/coordination.k8s.io/v1/namespaces/<ns>/leases/<name>`). */
  leasePath: string;
  leaseDurationMs: number;
  /** The replicas' user names: writes by anyone else (the harness, the simulated controllers) are not judged. */
  replicas: readonly string[];
}

const succeeded = (w: AuditedWrite): boolean => w.code >= 200 && w.code < 300;

function isLeaseWrite(w: AuditedWrite, rules: FencingRules): boolean {
  // Creating the Lease posts to its collection.
  return w.path === rules.leasePath || (w.method === 'POST' && rules.leasePath.startsWith(`${w.path}/`));
}

function whyFenced(w: AuditedWrite, renewedAt: number | undefined, takenAt: number | undefined, rules: FencingRules): string | undefined {
  if (renewedAt === undefined) return 'it never held the lease';
  if (takenAt !== undefined && takenAt > renewedAt) return `another replica took the lease ${w.receivedAt - takenAt}ms before`;
  const since = w.receivedAt - renewedAt;
  if (since > rules.leaseDurationMs)
    return `its lease was last renewed ${since}ms before, past the ${rules.leaseDurationMs}ms lease duration`;
  return undefined;
}

/** Every write by a replica while it did not hold the lease, in arrival order. */
export function writesAfterLeaseLoss(writes: readonly AuditedWrite[], rules: FencingRules): Violation[] {
  const replicas = new Set(rules.replicas);
  const renewedAt = new Map<string, number>();
  let lastLeaseWrite: { by: string; at: number } | undefined;
  const takenSince = new Map<string, number>();
  const found: Violation[] = [];
  for (const w of [...writes].sort((a, b) => a.receivedAt - b.receivedAt)) {
    if (!replicas.has(w.username)) continue;
    if (isLeaseWrite(w, rules)) {
      if (!succeeded(w)) continue;
      renewedAt.set(w.username, w.receivedAt);
      takenSince.delete(w.username);
      for (const other of replicas) if (other !== w.username && !takenSince.has(other)) takenSince.set(other, w.receivedAt);
      lastLeaseWrite = { by: w.username, at: w.receivedAt };
      continue;
    }
    const why = whyFenced(w, renewedAt.get(w.username), takenSince.get(w.username), rules);
    if (why === undefined) continue;
    found.push({
      kind: 'write-after-lease-loss',
      subject: `${w.username} ${w.method} ${w.path} @${w.receivedAt}`,
      detail: `${w.username} sent ${w.method} ${w.path} (answered ${w.code}) after losing the lease: ${why}${
        lastLeaseWrite ? ` (last Lease write by ${lastLeaseWrite.by})` : ''
      }`,
    });
  }
  return found;
}
