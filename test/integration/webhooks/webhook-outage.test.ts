// What a user can still do while the service is down, with the chart's webhook configurations (rendered by real
// Helm) on the simulated API server, which evaluates their matchConditions as kube-apiserver does. The same
// operations run against the configurations without matchConditions (as the chart shipped them before) and with
// them; the table of both is printed, and the one with them asserted: metadata-only edits, finalizer removal and
// deletes succeed, spec writes are refused with the message the user sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { Resources } from '../../../src/kube/index.js';
import { ofKind, render, valuesFor } from '../../chart/chart-fixtures.js';
import { nodePool, type ProvisioningBed, startProvisioningBed } from '../provisioning/harness.js';

let bed: ProvisioningBed;
let custom: CustomObjectsApi;

const configs = [
  ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
  ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
] as const;
const admissionregistration = { group: 'admissionregistration.k8s.io', version: 'v1' };
const nodepools = { group: 'karpenter.sh', version: 'v1', plural: 'nodepools' };

type Json = Record<string, unknown> & { metadata: Record<string, unknown>; spec?: Record<string, unknown> };

/** Installs the chart's webhook configurations, with or without their matchConditions. */
async function installWebhooks(withConditions: boolean): Promise<void> {
  const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
  for (const [kind, plural] of configs) {
    for (const body of ofKind<Json>(chart, kind)) {
      const webhooks = (body.webhooks as Record<string, unknown>[]).map(({ matchConditions, ...rest }) =>
        withConditions ? { ...rest, matchConditions } : rest,
      );
      const name = body.metadata.name as string;
      await custom.deleteClusterCustomObject({ ...admissionregistration, plural, name }).catch(() => undefined);
      await custom.createClusterCustomObject({ ...admissionregistration, plural, body: { ...body, webhooks } });
    }
  }
  await bed.cluster.apiServer.settle();
}

/** "ok", or the message the API server answered with. */
const outcome = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (e: { body?: string }) => (JSON.parse(e.body ?? '{}') as { message?: string }).message ?? String(e),
  );

const get = async (name: string): Promise<Json> => (await custom.getClusterCustomObject({ ...nodepools, name })) as Json;
const replace = async (name: string, change: (o: Json) => void): Promise<unknown> => {
  const object = await get(name);
  change(object);
  return custom.replaceClusterCustomObject({ ...nodepools, name, body: object });
};

/** Each operation a user or GitOps makes on a NodePool, on a pool of its own made while the service was up. */
async function operations(prefix: string): Promise<[string, string][]> {
  const pool = (suffix: string): string => `${prefix}-${suffix}`;
  for (const suffix of ['label', 'finalizer', 'delete', 'spec'])
    await bed.kube.create(Resources.NodePool, {
      ...nodePool(pool(suffix)),
      metadata: { name: pool(suffix), finalizers: ['example.com/hold'] },
    });
  await installWebhooks(prefix === 'after');
  const rows: [string, string][] = [];
  rows.push(['label a NodePool (metadata only)', await outcome(replace(pool('label'), (o) => (o.metadata.labels = { team: 'a' })))]);
  await bed.kube.delete(Resources.NodePool, { name: pool('finalizer') });
  rows.push(['delete a NodePool (held by a finalizer)', 'ok']);
  rows.push(['remove the finalizer of a deleted NodePool', await outcome(replace(pool('finalizer'), (o) => (o.metadata.finalizers = [])))]);
  rows.push(['delete a NodePool', await outcome(custom.deleteClusterCustomObject({ ...nodepools, name: pool('delete') }))]);
  rows.push([
    'change a NodePool spec (weight)',
    await outcome(replace(pool('spec'), (o) => ((o.spec as Record<string, unknown>).weight = 7))),
  ]);
  rows.push(['create a NodePool', await outcome(custom.createClusterCustomObject({ ...nodepools, body: nodePool(pool('new')) }))]);
  // Leaves no webhook in the way of the next run's set-up.
  for (const [, plural] of configs)
    for (const name of ['karpenter-eu-defaulting', 'karpenter-eu-validation'])
      await custom.deleteClusterCustomObject({ ...admissionregistration, plural, name }).catch(() => undefined);
  return rows;
}

beforeAll(async () => {
  bed = await startProvisioningBed();
  custom = bed.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
});

afterAll(async () => {
  await bed?.close();
});

describe('a webhook outage, with the chart webhooks installed and nothing serving them', () => {
  it(
    'lets metadata edits, finalizer removal and deletes through, and refuses spec writes with the webhook named',
    { timeout: 60_000 },
    async () => {
      const before = await operations('before');
      const after = Object.fromEntries(await operations('after'));
      const table = before.map(([op, was]) => `| ${op} | ${was} | ${after[op] ?? ''} |`);
      console.log(['| operation, service down | without matchConditions | with matchConditions |', '|---|---|---|', ...table].join('\n'));
      expect(after['label a NodePool (metadata only)']).toBe('ok');
      expect(after['remove the finalizer of a deleted NodePool']).toBe('ok');
      expect(after['delete a NodePool']).toBe('ok');
      expect(after['change a NodePool spec (weight)']).toMatch(
        /^Internal error occurred: failed calling webhook "defaulting.karpenter-eu.io": /,
      );
      expect(after['create a NodePool']).toMatch(/^Internal error occurred: failed calling webhook "defaulting.karpenter-eu.io": /);
      // The finalizer removed, the deleted NodePool is gone.
      await expect(get('after-finalizer')).rejects.toThrow();
      // Without the conditions, the same metadata-only writes were refused.
      expect(Object.fromEntries(before)['remove the finalizer of a deleted NodePool']).toContain('failed calling webhook');
    },
  );
});
