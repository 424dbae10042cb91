// The chart's NetworkPolicy, rendered by the real `helm template`: on by default, admitting each port only from
// what must reach it (the webhooks from any source, as a managed control plane's API server calls from addresses
// no selector names; the extender from the second scheduler; metrics from the monitoring namespaces), and values
// that open or narrow each rule.
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ofKind, only, render, valuesFor } from './chart-fixtures.js';
import { schemaProblems } from './kube-schema.js';

/** The rendered YAML as written (`from`, which client-node's model names `_from`). */
interface Rule {
  ports?: { port: string; protocol: string }[];
  from?: unknown[];
}
interface Policy {
  spec?: { podSelector?: { matchLabels?: Record<string, string> }; policyTypes?: string[]; ingress?: Rule[] };
}

async function policyFor(extra: Record<string, unknown> = {}): Promise<Policy[]> {
  return ofKind<Policy>(await render(valuesFor('scaleway', 'selfSigned', extra)), 'NetworkPolicy');
}

/** The ingress rule of one named port, and its sources (undefined: any source). */
function ruleOf(policy: Policy | undefined, port: string): Rule {
  const rules = policy?.spec?.ingress?.filter((r) => r.ports?.some((p) => p.port === port)) ?? [];
  expect(rules, port).toHaveLength(1);
  return rules[0] as Rule;
}

describe('the NetworkPolicy of the chart', () => {
  it('is on by default, selects the service pods, and restricts ingress only (the service must reach its clouds)', async () => {
    const chart = await render(valuesFor('scaleway', 'selfSigned'));
    const policy = only<Policy>(chart, 'NetworkPolicy');
    expect(schemaProblems(policy as unknown as Record<string, unknown>)).toEqual([]);
    expect(policy.spec?.policyTypes).toEqual(['Ingress']);
    const deployment = only<k8s.V1Deployment>(chart, 'Deployment');
    expect(policy.spec?.podSelector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    // Every rule names a port the container declares, and every declared port has exactly one rule.
    const declared = deployment.spec?.template.spec?.containers[0]?.ports?.map((p) => p.name) ?? [];
    const ruled = policy.spec?.ingress?.flatMap((r) => r.ports?.map((p) => p.port) ?? []) ?? [];
    expect([...ruled].sort()).toEqual([...declared].sort());
  });

  it('admits the webhooks from any source, the extender from the second scheduler, metrics from monitoring and its own namespace', async () => {
    const [policy] = await policyFor();
    expect(ruleOf(policy, 'https-webhook').from).toBeUndefined();
    expect(ruleOf(policy, 'https-extender').from).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'karpenter-eu-scheduler' } } },
    ]);
    expect(ruleOf(policy, 'http-metrics').from).toEqual([
      { podSelector: {} },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);
  });

  it('values narrow the webhooks, open the extender and pick the monitoring namespaces', async () => {
    const controlPlane = [{ ipBlock: { cidr: '10.3.0.0/24' } }];
    const [policy] = await policyFor({
      networkPolicy: {
        webhook: { from: controlPlane },
        extender: { from: [] },
        metrics: { from: [{ namespaceSelector: { matchLabels: { 'monitoring.example.com/scrape': 'true' } } }] },
      },
    });
    expect(ruleOf(policy, 'https-webhook').from).toEqual(controlPlane);
    // An empty `from` admits every source (NetworkPolicyIngressRule semantics).
    expect(ruleOf(policy, 'https-extender').from ?? []).toEqual([]);
    expect(ruleOf(policy, 'http-metrics').from).toEqual([
      { podSelector: {} },
      { namespaceSelector: { matchLabels: { 'monitoring.example.com/scrape': 'true' } } },
    ]);
  });

  it('is left out with networkPolicy.enabled=false, and an unknown key is refused by the values schema', async () => {
    expect(await policyFor({ networkPolicy: { enabled: false } })).toEqual([]);
    await expect(policyFor({ networkPolicy: { ingress: [] } })).rejects.toThrow(/additional properties 'ingress' not allowed|ingress/);
  });
});
