/** Shared fixtures for the simulated API server wire tests. */
import type * as k8s from '@kubernetes/client-node';

export const nodePoolCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodepools.karpenter.sh' },
  spec: {
    group: 'karpenter.sh',
    names: { kind: 'NodePool', listKind: 'NodePoolList', plural: 'nodepools', singular: 'nodepool', categories: ['karpenter'] },
    scope: 'Cluster',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {} },
      },
    ],
  },
};

export function pod(name: string, labels: Record<string, string> = {}, extra: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod {
  return { metadata: { name, labels }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }], ...extra } };
}

/** Polls until `check` returns a value (not undefined/false) or fails after `attempts` tries. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

/** For `.then(unexpectedSuccess, statusOf)`: a call that was meant to fail. */
export function unexpectedSuccess(value: unknown): never {
  throw new Error(`expected the call to fail, got ${JSON.stringify(value)}`);
}

/** The Status body of a failed client-node call (CustomObjectsApi gives it as a string). */
export function statusOf(err: unknown): {
  code: number;
  reason?: string;
  message?: string;
  details?: { causes?: Array<{ message?: string }> };
} {
  const e = err as { code?: number; body?: unknown };
  const body = typeof e.body === 'string' ? (JSON.parse(e.body) as object) : (e.body as object);
  return { code: e.code ?? 0, ...(body ?? {}) };
}

export async function rawRequest(
  url: string,
  method: string,
  body?: string,
  contentType = 'application/json',
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, { method, ...(body !== undefined ? { body, headers: { 'content-type': contentType } } : {}) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}
