/** Keeps every PodDisruptionBudget's status current as pods come, go and change readiness. */
import { type Clock } from '../../../../util/clock.js';
import { jsonEqual } from '../../../../util/json-patch.js';
import { keyOf } from '../kube-object.js';
import { isoTime } from '../object-meta.js';
import { type ObjectStore, type StoreEvent } from '../object-store.js';
import { computePdbStatus, pdbStatusObject } from '../pdb-status.js';
import { type Controller } from './controller.js';
import { WorkQueue } from './work-queue.js';

const pdbKey = 'policy/poddisruptionbudgets';

export class PdbController implements Controller {
  readonly name = 'disruption-controller';
  private readonly queue = new WorkQueue((ns) => Promise.resolve(this.reconcileNamespace(ns)));

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey !== pdbKey && event.storageKey !== '/pods') return;
    const ns = event.object.metadata.namespace;
    if (!ns) return;
    if (event.storageKey === '/pods' && !this.hasPdbs(ns)) return;
    this.queue.add(ns);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  get busy(): boolean {
    return this.queue.busy;
  }

  get errors(): readonly Error[] {
    return this.queue.errors;
  }

  stop(): void {
    this.queue.stop();
  }

  private hasPdbs(ns: string): boolean {
    for (const pdb of this.store.values(pdbKey)) if (pdb.metadata.namespace === ns) return true;
    return false;
  }

  private reconcileNamespace(ns: string): void {
    const pdbs = [...this.store.values(pdbKey)].filter((p) => p.metadata.namespace === ns);
    if (pdbs.length === 0) return;
    const pods = [...this.store.values('/pods')].filter((p) => p.metadata.namespace === ns);
    const now = isoTime(this.clock.now());
    for (const pdb of pdbs) {
      const status = pdbStatusObject(computePdbStatus(pdb, pods), pdb.status, now);
      if (jsonEqual(status, pdb.status)) continue;
      const current = this.store.get(pdbKey, keyOf(pdb));
      if (current) this.store.put(pdbKey, { ...structuredClone(current), status });
    }
  }
}
