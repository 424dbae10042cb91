/**
 * The name of the controller a piece of work runs for, carried along its async calls (upstream Karpenter puts it
 * in the context). The cloud-call metrics label each call with it, so a dashboard tells provisioning's creates
 * from garbage collection's lists without every caller passing a name down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<string>();

export function runAsController<T>(name: string, work: () => T): T {
  return storage.run(name, work);
}

/** The running controller's name, or '' outside any controller (the webhooks, the extender, start-up). */
export function currentControllerName(): string {
  return storage.getStore() ?? '';
}
