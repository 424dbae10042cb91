/**
 * "Was what the plan needs launched, once?" for the provisioning steps: the step's pods planned by the same
 * `solve()` the provisioner calls, against the NodePools and instance types the running operator sees and
 * the nodes that existed when the step began, next to the NodeClaims the provisioner created in the step
 * (its `karpenter_nodeclaims_created_total{reason="provisioned"}`, so consolidation replacements made
 * meanwhile do not count).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { existingNodesOf, schedulingNodePool } from '../../controllers/provisioning/scheduling-input.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import { type PlannedNodeClaim, solve } from '../../domain/scheduling/index.js';
import { daemonSetPod } from '../../domain/workloads/index.js';
import type { StateNode } from '../../state/index.js';
import type { DemoContext } from './scenario.js';
import { StepExpectationError } from './scenario.js';
import { describeClaims } from './steps/describe.js';

/** What a step starts from: the nodes then, and how many NodeClaims the provisioner had created. */
export interface StepStart {
  nodes: StateNode[];
  provisioned: number;
}

async function provisionedSoFar(ctx: DemoContext): Promise<number> {
  const metric = await ctx.env.operator.metrics.nodeClaimsCreated.get();
  return metric.values.filter((v) => v.labels.reason === 'provisioned').reduce((sum, v) => sum + v.value, 0);
}

export async function stepStart(ctx: DemoContext): Promise<StepStart> {
  return { nodes: ctx.env.operator.state.snapshot().nodes.filter((n) => !n.markedForDeletion), provisioned: await provisionedSoFar(ctx) };
}

/** The NodeClaims one `solve()` of `pods` (as pending pods) opens on the cluster as it was at `start`. */
export async function planned(ctx: DemoContext, start: StepStart, pods: readonly V1Pod[]): Promise<PlannedNodeClaim[]> {
  const operator = ctx.env.operator;
  const snapshot = operator.state.snapshot();
  const types = new Map<string, InstanceType>();
  const nodePools = [];
  for (const pool of snapshot.nodePools) {
    const offered = await operator.cloudProvider.getInstanceTypes(pool);
    for (const t of offered) types.set(t.name, t);
    const scheduling = schedulingNodePool(pool, offered, {});
    if (scheduling) nodePools.push(scheduling);
  }
  const pending = pods.map((p) => ({ metadata: p.metadata, spec: { ...p.spec, nodeName: undefined } }) as V1Pod);
  const existingNodes = existingNodesOf(start.nodes, (name) => types.get(name));
  return solve({ pods: pending, existingNodes, nodePools, daemonSets: snapshot.daemonSets.map(daemonSetPod) }).newNodeClaims;
}

/** Throws, with both sides, when the provisioner created more or fewer NodeClaims in the step than the plan has. */
export async function expectLaunchedAsPlanned(
  ctx: DemoContext,
  step: string,
  start: StepStart,
  plan: readonly PlannedNodeClaim[],
): Promise<void> {
  const launched = (await provisionedSoFar(ctx)) - start.provisioned;
  if (launched === plan.length) return;
  throw new StepExpectationError(
    `the provisioner created ${launched} NodeClaim(s) (${describeClaims(ctx.ledger.createdIn(step)) || 'none'}) where the plan needs ${plan.length} (${plan.map((c) => `${c.instanceType} in ${c.zone}`).join(', ')})`,
  );
}
