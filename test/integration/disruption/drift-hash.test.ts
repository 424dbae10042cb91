/**
 * What drifts a node when its NodePool changes: upstream leaves `expireAfter` and `terminationGracePeriod` out of
 * the template hash (they apply without replacing nodes), and a change to how the hash is computed must not make
 * every existing node drifted: the hash controller re-stamps NodeClaims of an older hash version, as upstream's
 * nodepool hash controller does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnnotationNodePoolHash,
  AnnotationNodePoolHashVersion,
  type NodeClaim,
  type NodePool,
  NodePoolHashVersion,
} from '../../../src/apis/index.js';
import { createNodePoolHashController } from '../../../src/controllers/nodepool/hash-controller.js';
import { nodePoolHash } from '../../../src/domain/disruption/index.js';
import { Resources } from '../../../src/kube/index.js';
import * as builders from '../../builders.js';
import { mondayAt, nodePool, startTestBed, type TestBed } from './harness.js';

let bed: TestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const pool = (): NodePool => {
  const p = nodePool('default', { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never', budgets: [{ nodes: '100%' }] });
  p.spec.template.spec.expireAfter = '720h';
  return p;
};

function stamped(name: string, annotations: Record<string, string>): NodeClaim {
  const claim = builders.nodeClaim({
    name,
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m-2'] }],
  });
  claim.metadata = { ...claim.metadata, annotations };
  return claim;
}

/** The template hash as the previous hash version (`v3`) computed it: expireAfter and terminationGracePeriod included. */
function previousVersionHash(p: NodePool): string {
  const canonical = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
  };
  const { requirements: _requirements, ...spec } = p.spec.template.spec;
  const text = canonical({ metadata: { labels: {}, annotations: {} }, spec });
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) hash = ((hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(10);
}

async function patchTemplate(b: TestBed, spec: Record<string, unknown>): Promise<void> {
  await b.kube.patch(Resources.NodePool, { name: 'default' }, { type: 'merge', body: { spec: { template: spec } } });
  await b.until('the NodePool change seen', () => {
    const seen = b.state.nodePool('default') as NodePool | undefined;
    return JSON.stringify(seen?.spec.template).includes(JSON.stringify(Object.values(spec)[0]).slice(1, -1));
  });
}

async function initialized(b: TestBed, count: number): Promise<void> {
  await b.until('nodes initialized', () => b.state.stateNodes().filter((n) => n.initialized).length === count);
}

describe('NodePool template changes and drift', () => {
  it('changing expireAfter or terminationGracePeriod drifts no node; changing a template label still does', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    const p = pool();
    await b.kube.create(Resources.NodePool, p);
    const current = { [AnnotationNodePoolHash]: nodePoolHash(p), [AnnotationNodePoolHashVersion]: NodePoolHashVersion };
    for (const n of ['a', 'b']) await b.kube.create(Resources.NodeClaim, stamped(n, current));
    await initialized(b, 2);

    await patchTemplate(b, { spec: { expireAfter: '1000h', terminationGracePeriod: '2h' } });
    expect(await b.disruptOnce()).toBeUndefined();
    expect(
      b
        .nodeClaims()
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);

    await patchTemplate(b, { metadata: { labels: { team: 'blue' } } });
    const drift = await b.disruptOnce();
    expect(drift?.command).toMatchObject({ reason: 'Drifted', driftReason: 'NodePoolDrifted' });
  });

  it('on upgrade, NodeClaims stamped by the previous hash version are re-stamped, not drifted, and drift again on a real change', async () => {
    bed = await startTestBed({ start: mondayAt(12) });
    const b = bed;
    const p = pool();
    await b.kube.create(Resources.NodePool, p);
    const previous = { [AnnotationNodePoolHash]: previousVersionHash(p), [AnnotationNodePoolHashVersion]: 'v3' };
    for (const n of ['a', 'b']) await b.kube.create(Resources.NodeClaim, stamped(n, previous));
    // One NodeClaim was already drifted under the old version: it stays drifted (its old hash is kept).
    await b.kube.create(Resources.NodeClaim, stamped('c', { ...previous, [AnnotationNodePoolHash]: 'stale' }));
    await initialized(b, 3);
    await b.kube.patch(
      Resources.NodeClaim,
      { name: 'c' },
      {
        type: 'merge',
        body: {
          status: {
            conditions: [
              { type: 'Drifted', status: 'True', reason: 'NodePoolDrifted', message: '', lastTransitionTime: new Date().toISOString() },
            ],
          },
        },
      },
      { status: true },
    );
    await b.until('c drifted', () => Boolean(b.state.nodeClaim('c')?.status?.conditions?.some((c) => c.type === 'Drifted')));

    const hash = createNodePoolHashController({ kube: b.kube, state: b.state, clock: b.clock });
    await hash.reconcile();
    await b.until('re-stamped', () =>
      ['a', 'b', 'c'].every((n) => b.state.nodeClaim(n)?.metadata?.annotations?.[AnnotationNodePoolHashVersion] === NodePoolHashVersion),
    );
    expect(b.state.nodeClaim('a')?.metadata?.annotations?.[AnnotationNodePoolHash]).toBe(nodePoolHash(p));
    expect(b.state.nodeClaim('c')?.metadata?.annotations?.[AnnotationNodePoolHash]).toBe('stale');
    // The NodePool carries its hash and version, as upstream's controller writes them.
    const written = await b.kube.get<NodePool>(Resources.NodePool, { name: 'default' });
    expect(written.metadata?.annotations).toMatchObject({
      [AnnotationNodePoolHash]: nodePoolHash(p),
      [AnnotationNodePoolHashVersion]: NodePoolHashVersion,
    });

    // Only the NodeClaim drifted before the upgrade is replaced.
    const first = await b.disruptOnce();
    expect(first?.command.candidates).toEqual(['c']);
    await b.until('c gone', () => !b.nodeClaims().some((c) => c.metadata?.name === 'c'));
    expect(await b.disruptOnce()).toBeUndefined();

    await patchTemplate(b, { metadata: { labels: { team: 'blue' } } });
    const drift = await b.disruptOnce();
    expect(drift?.command).toMatchObject({ reason: 'Drifted', driftReason: 'NodePoolDrifted' });
  });
});
