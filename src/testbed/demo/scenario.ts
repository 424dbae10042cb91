/**
 * The demo scenario as data: a list of steps, each a title, what it needs (controllers, clouds) and a small
 * function that acts through the API and waits for what a person would watch for. A step whose needs are
 * not met is skipped with the reason; a failed expectation stops the scenario and fails the demo.
 */
import { CoreV1Api, type KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import type { Clock } from '../../util/clock.js';
import type { DemoCloud, DemoEnvironment } from './environment.js';
import type { LedgerEntry, NodeLedger } from './ledger.js';
import type { Timeline } from './timeline.js';

export interface DemoContext {
  env: DemoEnvironment;
  clouds: readonly DemoCloud[];
  /** The cloud single-cloud steps (zone spread, drift) use. */
  primaryCloud: DemoCloud;
  kubeConfig: KubeConfig;
  objects: KubernetesObjectApi;
  core: CoreV1Api;
  clock: Clock;
  timeline: Timeline;
  ledger: NodeLedger;
  /** Names of the controllers the operator runs. */
  controllers: ReadonlySet<string>;
  /** How long one wait may take before the step fails. */
  waitTimeoutMs: number;
}

export interface DemoStep {
  id: string;
  title: string;
  needs?: { controllers?: readonly string[]; clouds?: readonly DemoCloud[] };
  /** Returns the one-line outcome shown with ✓. Throws StepExpectationError when what it expects does not happen. */
  run(ctx: DemoContext): Promise<string>;
}

export class StepExpectationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepExpectationError';
  }
}

export type StepStatus = 'passed' | 'skipped' | 'failed';

export interface StepResult {
  id: string;
  title: string;
  status: StepStatus;
  detail: string;
  /** EUR per hour of the live NodeClaims when the step ended. */
  hourlyCostAfter: number;
}

export interface DemoSummary {
  ok: boolean;
  steps: StepResult[];
  nodes: LedgerEntry[];
  peakHourlyCost: number;
  finalHourlyCost: number;
  elapsedSeconds: number;
}

export function createDemoContext(fields: Omit<DemoContext, 'kubeConfig' | 'objects' | 'core'>): DemoContext {
  const kubeConfig = fields.env.cluster.kubeConfig;
  return { ...fields, kubeConfig, objects: KubernetesObjectApi.makeApiClient(kubeConfig), core: kubeConfig.makeApiClient(CoreV1Api) };
}

function unmetNeed(ctx: DemoContext, step: DemoStep): string | undefined {
  const missingController = step.needs?.controllers?.find((c) => !ctx.controllers.has(c));
  if (missingController) return `skipped: the ${missingController} controller is not part of this build`;
  const clouds = step.needs?.clouds;
  if (clouds && !clouds.some((c) => ctx.clouds.includes(c))) return `skipped: needs ${clouds.join(' or ')} (not selected with --cloud)`;
  return undefined;
}

async function runStep(ctx: DemoContext, step: DemoStep, index: number, total: number): Promise<StepResult> {
  const base = { id: step.id, title: step.title };
  ctx.timeline.heading(index, total, step.title);
  ctx.ledger.setStep(step.id);
  const unmet = unmetNeed(ctx, step);
  if (unmet) {
    ctx.timeline.skip(unmet);
    return { ...base, status: 'skipped', detail: unmet, hourlyCostAfter: ctx.ledger.hourlyCost() };
  }
  try {
    const detail = await step.run(ctx);
    ctx.timeline.ok(detail);
    return { ...base, status: 'passed', detail, hourlyCostAfter: ctx.ledger.hourlyCost() };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    ctx.timeline.fail(`${step.id}: ${detail}`);
    return { ...base, status: 'failed', detail, hourlyCostAfter: ctx.ledger.hourlyCost() };
  }
}

/** Runs the steps in order; stops at the first failure (later steps build on earlier ones). */
export async function runScenario(ctx: DemoContext, steps: readonly DemoStep[]): Promise<DemoSummary> {
  const results: StepResult[] = [];
  for (const [i, step] of steps.entries()) {
    const result = await runStep(ctx, step, i + 1, steps.length);
    results.push(result);
    if (result.status === 'failed') break;
  }
  return {
    ok: results.every((r) => r.status !== 'failed'),
    steps: results,
    nodes: ctx.ledger.all(),
    peakHourlyCost: ctx.ledger.peakHourlyCost(),
    finalHourlyCost: ctx.ledger.hourlyCost(),
    elapsedSeconds: ctx.timeline.elapsedSeconds(),
  };
}
