/**
 * Where a controller's reconcile passes are recorded, carried along the async calls of the controllers the
 * operator runs (as the controller's name is, util/controller-name.ts): the polling loops record each pass
 * without every controller taking the metrics as a dependency.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { currentControllerName } from '../util/controller-name.js';
import type { ReconcileResult } from './reconcile-metrics.js';

export type ReconcileRecorder = (controller: string, result: ReconcileResult, seconds: number) => void;

const storage = new AsyncLocalStorage<ReconcileRecorder>();

export function recordingReconciles<T>(recorder: ReconcileRecorder, work: () => T): T {
  return storage.run(recorder, work);
}

/** Records one pass of the running controller; nothing outside `recordingReconciles` (unit tests, tools). */
export function recordReconcile(result: ReconcileResult, seconds: number): void {
  storage.getStore()?.(currentControllerName(), result, seconds);
}
