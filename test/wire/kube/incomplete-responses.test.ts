// A list reply without `items`, or an object reply without `metadata`, through the real client-node against
// the simulated API server: a KubeIncompleteResponse (retryable), never an empty list that would make every
// instance look unowned to garbage collection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/index.js';
import { createKube, isKubeIncompleteResponse, type Kube, Resources } from '../../../src/kube/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { pod, startClusterWithCrds } from './kube-fixtures.js';
import { nodeClaim } from './kube-fixtures-objects.js';

let server: ApiServer;
let kube: Kube;

beforeEach(async () => {
  server = await startClusterWithCrds();
  kube = createKube(server.kubeConfig);
});

afterEach(async () => {
  await server.close();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

const spoiledAnswers: [string, Fault][] = [
  ['an empty body', { kind: 'empty-body' }],
  ['{}', { kind: 'empty-object' }],
  ['a truncated body', { kind: 'truncated-body' }],
];

describe('Kube list and get replies that lack what they must carry', () => {
  it.each(spoiledAnswers)('a custom-kind list (NodeClaims) answered 200 with %s throws KubeIncompleteResponse', async (_what, fault) => {
    await kube.create(Resources.NodeClaim, nodeClaim('default-abc', 'default'));
    const rule = server.faults.add({ match: { method: 'GET', path: '/apis/karpenter.sh/v1/nodeclaims' }, fault });
    const error = await rejection(kube.list<NodeClaim>(Resources.NodeClaim));
    expect(isKubeIncompleteResponse(error), String(error)).toBe(true);
    server.faults.remove(rule);
    expect((await kube.list<NodeClaim>(Resources.NodeClaim)).items).toHaveLength(1);
  });

  it.each(spoiledAnswers)('a built-in list (Pods) answered 200 with %s throws KubeIncompleteResponse', async (_what, fault) => {
    await kube.create(Resources.Pod, pod('web-1'));
    server.faults.add({ match: { method: 'GET', path: '/api/v1/namespaces/default/pods' }, fault });
    const error = await rejection(kube.list(Resources.Pod, { namespace: 'default' }));
    expect(isKubeIncompleteResponse(error), String(error)).toBe(true);
  });

  it.each(spoiledAnswers)('a get answered 200 with %s throws KubeIncompleteResponse, not an empty object', async (_what, fault) => {
    await kube.create(Resources.NodeClaim, nodeClaim('default-abc', 'default'));
    server.faults.add({ match: { method: 'GET', path: '/apis/karpenter.sh/v1/nodeclaims/default-abc' }, fault });
    const error = await rejection(kube.get(Resources.NodeClaim, { name: 'default-abc' }));
    expect(isKubeIncompleteResponse(error), String(error)).toBe(true);
  });

  it('an empty list is still an answer: items: []', async () => {
    expect((await kube.list<NodeClaim>(Resources.NodeClaim)).items).toEqual([]);
  });
});
