/** The workloads the chaos scenarios run, and waiting for the world to converge on them. */
import { AppsV1Api, type V1Deployment, type V1Pod, CoreV1Api } from '@kubernetes/client-node';
import { convergedViolations, type Violation } from './invariants.js';
import type { ChaosCloud } from './observe.js';
import { ChaosNamespace, type ChaosWorld, installExamples } from './world.js';

export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${timeoutMs / 1000}s${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts the operator and applies the example NodeClass and NodePools once its webhooks answer; an operator
 * that exits first (a port taken meanwhile by another process) is started again.
 */
export async function bringUp(world: ChaosWorld): Promise<void> {
  let exited = false;
  const start = (): void => {
    exited = false;
    void world.startOperator().exited.then(() => {
      exited = true;
    });
  };
  start();
  await eventually(
    'the example NodeClass and NodePools admitted',
    async () => {
      if (exited) start();
      await installExamples(world);
      return true;
    },
    180_000,
  );
}

export function deployment(cloud: ChaosCloud, name: string, replicas: number): V1Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ChaosNamespace },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          nodeSelector: { 'karpenter-eu.io/cloud': cloud },
          containers: [{ name, image: 'nginx', resources: { requests: { cpu: '1500m', memory: '1Gi' } } }],
        },
      },
    },
  };
}

/** One pod wanting a GPU the cloud's GPU NodePool offers (Outscale: a flexible GPU; elsewhere a GPU flavor). */
export function gpuPod(cloud: ChaosCloud, name: string): V1Pod {
  const gpu = cloud === 'outscale' ? 'l40' : 'l4';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ChaosNamespace, labels: { app: name } },
    spec: {
      nodeSelector: { 'karpenter-eu.io/instance-gpu-name': gpu },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [
        {
          name: 'cuda',
          image: 'cuda',
          resources: { requests: { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
  };
}

export async function createDeployment(world: ChaosWorld, body: V1Deployment): Promise<void> {
  await world.cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: ChaosNamespace, body });
}

export async function scaleDeployment(world: ChaosWorld, name: string, replicas: number): Promise<void> {
  const api = world.cluster.kubeConfig.makeApiClient(AppsV1Api);
  const current = await api.readNamespacedDeployment({ name, namespace: ChaosNamespace });
  current.spec = { ...(current.spec as NonNullable<V1Deployment['spec']>), replicas };
  await api.replaceNamespacedDeployment({ name, namespace: ChaosNamespace, body: current });
}

export async function createPod(world: ChaosWorld, body: V1Pod): Promise<void> {
  await world.cluster.kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({ namespace: ChaosNamespace, body });
}

export async function deletePod(world: ChaosWorld, name: string): Promise<void> {
  await world.cluster.kubeConfig.makeApiClient(CoreV1Api).deleteNamespacedPod({ name, namespace: ChaosNamespace, gracePeriodSeconds: 0 });
}

/** Waits until every converged invariant holds; on timeout, throws with what still does not. */
export async function converged(world: ChaosWorld, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last: Violation[] = [];
  try {
    await eventually(
      'converged',
      () => {
        const world_ = world.observe();
        last = convergedViolations(world_);
        return last.length === 0 && world_.pods.length > 0;
      },
      timeoutMs,
    );
  } catch {
    throw new Error(
      `not converged in ${timeoutMs / 1000}s (operator logs in ${world.logDir}):\n${last.map((v) => `  ${v.kind}: ${v.detail}`).join('\n')}`,
    );
  }
  return Date.now() - started;
}
