/** Steps 3–6: scale up, small vs large flavors, zone spread, a GPU pod. */
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { LabelInstanceGPUName, LabelInstanceType, LabelTopologyZone } from '../../../apis/v1/labels.js';
import { exampleObjects } from '../demo-manifests.js';
import type { LedgerEntry } from '../ledger.js';
import { type DemoContext, type DemoStep, StepExpectationError } from '../scenario.js';
import { nodeLabelsOf, scaleDeployment, waitFor, waitForRunning } from '../waiting.js';
import { describeClaims } from './describe.js';
import { expectLaunchedAsPlanned, planned, stepStart } from '../launch-check.js';

const provisioningControllers = ['provisioning', 'nodeclaim.lifecycle'];

async function flavorsOf(ctx: DemoContext, pods: readonly V1Pod[]): Promise<Set<string>> {
  const labels = await nodeLabelsOf(ctx, pods);
  return new Set([...labels.values()].map((l) => l[LabelInstanceType] ?? '?'));
}

export const scaleUpStep: DemoStep = {
  id: 'scale-up',
  title: 'inflate scaled to 10 replicas: nodes of the cheapest fitting flavor appear',
  needs: { controllers: provisioningControllers },
  async run(ctx) {
    const start = await stepStart(ctx);
    const [deployment] = exampleObjects('workloads/inflate.yaml');
    await ctx.objects.create(deployment as KubernetesObject);
    await scaleDeployment(ctx, 'inflate', 10);
    ctx.timeline.say('kubectl scale deployment/inflate --replicas=10 (500m CPU, 512Mi each)');
    const pods = await waitForRunning(ctx, 'inflate', 10);
    const created = await launchedIn(ctx, 'scale-up');
    if (created.length === 0) throw new StepExpectationError('10 inflate pods run but no NodeClaim was created');
    await expectLaunchedAsPlanned(ctx, 'scale-up', start, await planned(ctx, start, pods));
    return `10/10 running on ${describeClaims(created)}`;
  },
};

export const flavorsStep: DemoStep = {
  id: 'flavors',
  title: 'small vs large pods pick different flavors (inflate-large: 3 CPU / 12Gi each)',
  needs: { controllers: provisioningControllers },
  async run(ctx) {
    const start = await stepStart(ctx);
    const [deployment] = exampleObjects('workloads/inflate-large.yaml');
    await ctx.objects.create(deployment as KubernetesObject);
    const large = await waitForRunning(ctx, 'inflate-large', 2);
    await expectLaunchedAsPlanned(ctx, 'flavors', start, await planned(ctx, start, large));
    const small = await waitForRunning(ctx, 'inflate', 10);
    const created = await launchedIn(ctx, 'flavors');
    const [largeFlavors, smallFlavors] = [await flavorsOf(ctx, large), await flavorsOf(ctx, small)];
    const onlyLarge = [...largeFlavors].filter((f) => !smallFlavors.has(f));
    if (onlyLarge.length === 0)
      throw new StepExpectationError(
        `inflate-large runs on ${[...largeFlavors].join(', ')}, the same flavors as inflate; expected a larger flavor`,
      );
    return `inflate on ${[...smallFlavors].join(', ')}; inflate-large on ${[...largeFlavors].join(', ')} (new: ${describeClaims(created)})`;
  },
};

/** The step's NodeClaims once each has recorded its launch (flavor, zone and so price known). */
function launchedIn(ctx: DemoContext, step: string): Promise<LedgerEntry[]> {
  // A pod can run before its NodeClaim records the launch (OVH pool nodes boot while the launch is polled).
  return waitFor(ctx, 'new NodeClaims launched', async () => {
    const entries = ctx.ledger.createdIn(step);
    const unlabelled = entries.filter((e) => !e.instanceType);
    return unlabelled.length === 0
      ? { done: entries, status: '' }
      : { status: `${unlabelled.length} of ${entries.length} not launched yet` };
  });
}

function zoneSpreadFor(ctx: DemoContext): KubernetesObject {
  type PodSpec = { nodeSelector: Record<string, string>; topologySpreadConstraints: { minDomains?: number }[] };
  const [deployment] = exampleObjects('workloads/zone-spread.yaml') as (KubernetesObject & { spec: { template: { spec: PodSpec } } })[];
  if (!deployment) throw new StepExpectationError('manifests/examples/workloads/zone-spread.yaml has no Deployment');
  const spec = deployment.spec.template.spec;
  spec.nodeSelector = { 'karpenter-eu.io/cloud': ctx.primaryCloud };
  // kube-scheduler only counts zones that already have nodes; minDomains makes it wait for the empty zones.
  for (const constraint of spec.topologySpreadConstraints) constraint.minDomains = zonesOf(ctx).length;
  return deployment;
}

/** Zones the primary cloud's default NodePool may use. */
function zonesOf(ctx: DemoContext): string[] {
  if (ctx.primaryCloud === 'ovhcloud') return ['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c'];
  return ctx.primaryCloud === 'scaleway'
    ? ['fr-par-1', 'fr-par-2', 'fr-par-3']
    : (ctx.env.outscale?.subregions ?? []).filter((z) => z === 'eu-west-2a' || z === 'eu-west-2b');
}

export const zoneSpreadStep: DemoStep = {
  id: 'zone-spread',
  title: 'zone-spread: 6 replicas, maxSkew 1 over topology.kubernetes.io/zone',
  needs: { controllers: provisioningControllers },
  async run(ctx) {
    const start = await stepStart(ctx);
    await ctx.objects.create(zoneSpreadFor(ctx));
    ctx.timeline.say(
      `kubectl apply: deployment/zone-spread (nodeSelector karpenter-eu.io/cloud=${ctx.primaryCloud}, minDomains ${zonesOf(ctx).length})`,
    );
    const pods = await waitForRunning(ctx, 'zone-spread', 6);
    await launchedIn(ctx, 'zone-spread');
    // One node per zone that had none of this cloud's nodes with room: the plan says which.
    await expectLaunchedAsPlanned(ctx, 'zone-spread', start, await planned(ctx, start, pods));
    const labels = await nodeLabelsOf(ctx, pods);
    const perZone = new Map<string, number>();
    for (const pod of pods) {
      const zone = labels.get(pod.spec?.nodeName ?? '')?.[LabelTopologyZone] ?? '?';
      perZone.set(zone, (perZone.get(zone) ?? 0) + 1);
    }
    const expected = zonesOf(ctx);
    const counts = [...perZone.values()];
    if (perZone.size !== expected.length || Math.max(...counts) - Math.min(...counts) > 1) {
      throw new StepExpectationError(
        `pods per zone ${JSON.stringify(Object.fromEntries(perZone))}; expected ${expected.length} zones with a skew of at most 1`,
      );
    }
    return `pods per zone: ${[...perZone.entries()]
      .sort()
      .map(([z, n]) => `${z}=${n}`)
      .join(', ')}`;
  },
};

export const gpuStep: DemoStep = {
  id: 'gpu',
  title: 'a pod asking for an NVIDIA L4 lands on a GPU flavor',
  // The clouds whose example NodePools include an L4 GPU pool (OVH l4-90, Scaleway L4-1-24G).
  needs: { controllers: provisioningControllers, clouds: ['scaleway', 'ovhcloud'] },
  async run(ctx) {
    const start = await stepStart(ctx);
    const [pod] = exampleObjects('workloads/gpu-pod.yaml');
    await ctx.objects.create(pod as KubernetesObject);
    const running = await waitFor(ctx, 'gpu-inference running', async () => {
      const p = await ctx.core.readNamespacedPod({ name: 'gpu-inference', namespace: 'default' });
      return p.status?.phase === 'Running'
        ? { done: p, status: '' }
        : { status: `phase ${p.status?.phase ?? '?'}, ${ctx.ledger.createdIn('gpu').length} new nodeclaims` };
    });
    const labels = (await nodeLabelsOf(ctx, [running])).get(running.spec?.nodeName ?? '') ?? {};
    if (labels[LabelInstanceGPUName] !== 'l4')
      throw new StepExpectationError(
        `gpu-inference runs on ${labels[LabelInstanceType] ?? '?'} whose GPU is ${labels[LabelInstanceGPUName] ?? 'none'}; expected l4`,
      );
    const plan = await planned(ctx, start, [running]);
    if (plan.length !== 1) throw new StepExpectationError(`the plan for one GPU pod has ${plan.length} NodeClaims; expected 1`);
    await expectLaunchedAsPlanned(ctx, 'gpu', start, plan);
    return `gpu-inference runs on ${labels[LabelInstanceType]} (${labels[LabelInstanceGPUName]} GPU, ${labels[LabelTopologyZone]})`;
  },
};
