/** Steps 1–2: install NodeClasses and NodePools, then a NodePool the admission webhook refuses. */
import type { KubernetesObject } from '@kubernetes/client-node';
import { apiErrorMessage } from '../install.js';
import { nodeClassesFor, nodePoolsFor } from '../demo-manifests.js';
import { type DemoContext, type DemoStep, StepExpectationError } from '../scenario.js';
import { waitFor } from '../waiting.js';

function describe(o: KubernetesObject): string {
  return `${o.kind}/${o.metadata?.name ?? ''}`;
}

export const installStep: DemoStep = {
  id: 'install',
  title: 'install NodeClasses and NodePools (manifests/examples)',
  async run(ctx: DemoContext) {
    const objects = ctx.clouds.flatMap((cloud) => [...nodeClassesFor(cloud, ctx.env), ...nodePoolsFor(cloud)]);
    for (const object of objects) {
      await ctx.objects.create(object);
      ctx.timeline.say(`kubectl apply: ${describe(object)} created`);
    }
    const pools = objects.filter((o) => o.kind === 'NodePool').map((o) => o.metadata?.name ?? '');
    await waitFor(ctx, 'the service sees every NodePool', async () => {
      const missing = pools.filter((name) => !ctx.env.operator.state.nodePool(name));
      return missing.length === 0 ? { done: true, status: '' } : { status: `waiting for ${missing.join(', ')}` };
    });
    return `${objects.length - pools.length} NodeClasses and ${pools.length} NodePools admitted (${pools.join(', ')})`;
  },
};

/** A zone the primary cloud does not have: the webhook names it and suggests the closest real one. */
function badNodePool(ctx: DemoContext): KubernetesObject {
  const byCloud = {
    ovhcloud: ['karpenter.ovhcloud.sh', 'OVHNodeClass', 'eu-west-par-d'],
    scaleway: ['karpenter.scaleway.sh', 'ScalewayNodeClass', 'fr-par-4'],
    outscale: ['karpenter.outscale.sh', 'OutscaleNodeClass', 'eu-west-2d'],
  } as const;
  const [group, kind, zone] = byCloud[ctx.primaryCloud];
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'bad-zone' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group, kind, name: 'default' },
          requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
        },
      },
    },
  } as KubernetesObject;
}

export const rejectStep: DemoStep = {
  id: 'reject',
  title: 'kubectl apply of a bad NodePool is refused by the admission webhook',
  async run(ctx: DemoContext) {
    const pool = badNodePool(ctx);
    ctx.timeline.say(
      `kubectl apply: NodePool/bad-zone with requirement ${JSON.stringify((pool as { spec: { template: { spec: { requirements: unknown[] } } } }).spec.template.spec.requirements[0])}`,
    );
    const outcome = await ctx.objects.create(pool).then(
      () => undefined,
      (error: unknown) => apiErrorMessage(error),
    );
    if (outcome === undefined) throw new StepExpectationError('the API server stored NodePool/bad-zone; expected the webhook to deny it');
    ctx.timeline.say(`Error from server: ${outcome}`);
    if (!outcome.includes('denied the request'))
      throw new StepExpectationError(`the API server refused NodePool/bad-zone, but not through the webhook: ${outcome}`);
    return 'denied by the validating webhook, with the field, the value and the accepted zones';
  },
};
