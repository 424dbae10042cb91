/**
 * manifests/webhooks/webhook-configurations.yaml (the demo and the guides install it) and the chart's webhook
 * configurations must say the same: every webhook with the same rules, selectors, matchConditions, failure policy,
 * timeout and endpoint. Only the caBundle (filled at install) and the objects' names and labels may differ.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ofKind, render, repoRoot, valuesFor } from './chart-fixtures.js';

type Webhook = Record<string, unknown> & { name: string; clientConfig: Record<string, unknown> };
type Configuration = { kind: string; webhooks: Webhook[] };

/** The webhooks of each kind by name, without the caBundle. */
function webhooksByKind(configurations: readonly Configuration[]): Record<string, Record<string, Webhook>> {
  const out: Record<string, Record<string, Webhook>> = {};
  for (const configuration of configurations) {
    for (const webhook of configuration.webhooks) {
      const { caBundle: _caBundle, ...clientConfig } = webhook.clientConfig;
      (out[configuration.kind] ??= {})[webhook.name] = { ...webhook, clientConfig };
    }
  }
  return out;
}

describe('the static webhook configurations', () => {
  it('match the chart rendered for release karpenter-eu in namespace karpenter, webhook by webhook', async () => {
    const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
    const rendered = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].flatMap((kind) =>
      ofKind<Configuration>(chart, kind).map((c) => ({ ...c, kind })),
    );
    const file = parseAllDocuments(readFileSync(join(repoRoot, 'manifests/webhooks/webhook-configurations.yaml'), 'utf8')).map(
      (d) => d.toJS() as Configuration,
    );
    const fromChart = webhooksByKind(rendered);
    expect(Object.keys(fromChart.ValidatingWebhookConfiguration ?? {})).toContain('pods.validation.karpenter-eu.io');
    expect(webhooksByKind(file)).toEqual(fromChart);
  }, 60_000);
});
