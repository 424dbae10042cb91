/** Steps 7–8: scale down and watch emptiness/consolidation remove nodes; change an image and watch drift replace them. */
import type { KubernetesObject } from '@kubernetes/client-node';
import { driftCloudOf, driftPatchFor } from '../demo-manifests.js';
import type { LedgerEntry } from '../ledger.js';
import { type DemoContext, type DemoStep, StepExpectationError } from '../scenario.js';
import { mergePatch, scaleDeployment, waitFor, waitForRunning } from '../waiting.js';
import { describeClaims, euros } from './describe.js';

const disruptionControllers = ['disruption', 'termination'];
/** The cluster counts as settled once its NodeClaims stayed the same for this long. */
const settledForMs = 6000;

/** Waits until the set of live NodeClaims has not changed for `settledForMs`, after at least one termination. */
function waitForSettledTerminations(ctx: DemoContext, step: string): Promise<true> {
  let lastKey = '';
  let since = ctx.clock.now();
  return waitFor(
    ctx,
    'nodes removed and the cluster settled',
    async () => {
      const live = ctx.ledger
        .live()
        .map((e) => e.name)
        .sort()
        .join(',');
      if (live !== lastKey) [lastKey, since] = [live, ctx.clock.now()];
      const terminated = ctx.ledger.terminatedIn(step).length;
      const stable = ctx.clock.now() - since >= settledForMs;
      return terminated > 0 && stable
        ? { done: true, status: '' }
        : { status: `${terminated} terminated, ${ctx.ledger.live().length} nodeclaims live, cost ${euros(ctx.ledger.hourlyCost())}` };
    },
    2 * ctx.waitTimeoutMs,
  );
}

function reasons(ctx: DemoContext, step: string): string {
  const counts = new Map<string, number>();
  for (const e of ctx.ledger.terminatedIn(step)) counts.set(e.reason ?? 'unknown', (counts.get(e.reason ?? 'unknown') ?? 0) + 1);
  return [...counts.entries()].map(([r, n]) => `${n} ${r}`).join(', ');
}

export const consolidationStep: DemoStep = {
  id: 'consolidation',
  title: 'scale down: empty nodes go, underutilized nodes are consolidated',
  needs: { controllers: disruptionControllers },
  async run(ctx) {
    const before = ctx.ledger.hourlyCost();
    await scaleDeployment(ctx, 'inflate', 2);
    for (const name of ['inflate-large', 'zone-spread']) await scaleDeployment(ctx, name, 0);
    await ctx.core.deleteNamespacedPod({ name: 'gpu-inference', namespace: 'default', gracePeriodSeconds: 0 }).catch(() => undefined);
    ctx.timeline.say('kubectl scale inflate=2, inflate-large=0, zone-spread=0; kubectl delete pod gpu-inference');
    await waitForSettledTerminations(ctx, 'consolidation');
    await waitForRunning(ctx, 'inflate', 2);
    const after = ctx.ledger.hourlyCost();
    if (!(after < before)) throw new StepExpectationError(`hourly cost went from ${euros(before)} to ${euros(after)}; expected it to fall`);
    return `${ctx.ledger.terminatedIn('consolidation').length} nodes terminated (${reasons(ctx, 'consolidation')}); hourly cost ${euros(before)} → ${euros(after)}`;
  },
};

/** A one-replica workload pinned to the cloud whose NodeClass the step changes, so a node there is sure to drift. */
function drifter(cloud: string): KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'drifter', namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'drifter' } },
      template: {
        metadata: { labels: { app: 'drifter' } },
        spec: {
          terminationGracePeriodSeconds: 0,
          nodeSelector: { 'karpenter-eu.io/cloud': cloud },
          containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '250m', memory: '256Mi' } } }],
        },
      },
    },
  } as KubernetesObject;
}

export const driftStep: DemoStep = {
  id: 'drift',
  title: "a NodeClass changes (its image; on OVH alone, the pools' anti-affinity): drifted nodes are replaced",
  needs: { controllers: disruptionControllers },
  async run(ctx) {
    const cloud = driftCloudOf(ctx.clouds);
    if (!cloud) throw new StepExpectationError('no cloud is selected');
    const patch = driftPatchFor(cloud, ctx.env);
    await ctx.objects.create(drifter(cloud));
    await waitForRunning(ctx, 'drifter', 1);
    // The drifter's own node is created in this step too: only NodeClaims after the patch are replacements.
    const beforePatch = new Set(ctx.ledger.createdIn('drift').map((e) => e.name));
    const replacements = (): LedgerEntry[] => ctx.ledger.createdIn('drift').filter((e) => !beforePatch.has(e.name));
    await mergePatch(ctx, {
      apiVersion: patch.apiVersion,
      kind: patch.kind,
      metadata: { name: patch.name },
      spec: patch.spec,
    } as KubernetesObject);
    ctx.timeline.say(`kubectl patch ${patch.kind}/${patch.name} ${JSON.stringify({ spec: patch.spec })}`);
    await waitFor(ctx, 'a drifted node replaced', async () => {
      const drifted = ctx.ledger.terminatedIn('drift').filter((e) => e.reason === 'drifted');
      return drifted.length > 0
        ? { done: true, status: '' }
        : { status: `${replacements().length} replacements launched, ${ctx.ledger.terminatedIn('drift').length} terminated` };
    });
    await waitForRunning(ctx, 'drifter', 1);
    const drifted = ctx.ledger.terminatedIn('drift').filter((e) => e.reason === 'drifted');
    return `replaced ${describeClaims(drifted)} with ${describeClaims(replacements()) || 'no new node (pods fit elsewhere)'}; drifter 1/1 running`;
  },
};
