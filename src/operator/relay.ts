/**
 * A synchronous fan-out of one kind of notice between parts built apart: the extender's "this pod has no
 * node left" (served on every replica, before any controller runs) reaching the provisioner, or a created
 * NodeClaim reaching the lifecycle controller at once. A replica that is not leading has no listener.
 */
export type RelayListener<T> = (value: T) => void;

export class Relay<T> {
  private readonly listeners = new Set<RelayListener<T>>();

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: RelayListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The notices controllers exchange through the operator. */
export interface ControllerSignals {
  /** `namespace/name` of a pod that needs new capacity (extender), or a reason to re-plan (capacity shortage). */
  needsCapacity: Relay<string>;
  /** Name of a NodeClaim just created by the provisioner, to be launched without waiting for a resync. */
  nodeClaimCreated: Relay<string>;
}

export function createControllerSignals(): ControllerSignals {
  return { needsCapacity: new Relay<string>(), nodeClaimCreated: new Relay<string>() };
}
