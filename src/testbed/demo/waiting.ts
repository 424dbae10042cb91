/** Waiting as a person watching `kubectl get -w` would: poll, show progress, give up with what was seen. */
import { type KubernetesObject, PatchStrategy, type V1Pod } from '@kubernetes/client-node';
import { type DemoContext, StepExpectationError } from './scenario.js';

export interface Observation<T> {
  /** Defined once the wait is over. */
  done?: T;
  /** What is seen now, shown as progress and in the failure message. */
  status: string;
}

const pollIntervalMs = 250;

export async function waitFor<T>(
  ctx: DemoContext,
  what: string,
  observe: () => Promise<Observation<T>>,
  timeoutMs = ctx.waitTimeoutMs,
): Promise<T> {
  const deadline = ctx.clock.now() + timeoutMs;
  let last = 'nothing observed yet';
  for (;;) {
    const seen = await observe();
    if (seen.done !== undefined) return seen.done;
    last = seen.status;
    ctx.timeline.progress(`${what}: ${last}`);
    if (ctx.clock.now() >= deadline)
      throw new StepExpectationError(`${what}: not reached after ${Math.round(timeoutMs / 1000)}s (last seen: ${last})`);
    await ctx.clock.sleep(pollIntervalMs);
  }
}

export async function podsOf(ctx: DemoContext, app: string): Promise<V1Pod[]> {
  const list = await ctx.core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` });
  return list.items.filter((p) => !p.metadata?.deletionTimestamp);
}

export function isRunning(pod: V1Pod): boolean {
  return pod.status?.phase === 'Running';
}

/** Waits until `replicas` pods of the app run; returns them. */
export function waitForRunning(ctx: DemoContext, app: string, replicas: number): Promise<V1Pod[]> {
  return waitFor(ctx, `${replicas} ${app} pods running`, async () => {
    const pods = await podsOf(ctx, app);
    const running = pods.filter(isRunning);
    const pending = pods.length - running.length;
    return running.length === replicas && pods.length === replicas
      ? { done: running, status: '' }
      : { status: `${running.length}/${replicas} running, ${pending} pending, ${ctx.ledger.live().length} nodeclaims` };
  });
}

/** `kubectl patch --type merge`. */
export async function mergePatch(ctx: DemoContext, object: KubernetesObject): Promise<void> {
  await ctx.objects.patch(object, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
}

export function scaleDeployment(ctx: DemoContext, name: string, replicas: number): Promise<void> {
  return mergePatch(ctx, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas },
  } as KubernetesObject);
}

/** Node name → its labels, for the nodes the pods run on. */
export async function nodeLabelsOf(ctx: DemoContext, pods: readonly V1Pod[]): Promise<Map<string, Record<string, string>>> {
  const names = new Set(pods.map((p) => p.spec?.nodeName).filter((n): n is string => Boolean(n)));
  const nodes = await ctx.core.listNode();
  return new Map(
    nodes.items.filter((n) => names.has(n.metadata?.name ?? '')).map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}]),
  );
}
