// A NodeClass deleted while NodeClaims use it stays (finalizer) until they are gone: its account is how their
// instances are listed and deleted, and the resolver keeps listing it so a restarted service still finds them.
import { NodeClassSecretLabel } from '../../../src/domain/secrets/secret-access.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { FinalizerNodeClassInUse } from '../../../src/apis/v1/labels.js';
import { NodeClaimApiVersion, NodeClaimKind, type NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { ScalewayNodeClassGroup, ScalewayNodeClassKind, ScalewayNodeClassVersion } from '../../../src/apis/v1alpha1/scaleway-nodeclass.js';
import { OVHNodeClassGroup, OVHNodeClassKind, OVHNodeClassVersion } from '../../../src/apis/v1alpha1/ovh-nodeclass.js';
import {
  createNodeClassFinalizerController,
  type NodeClassFinalizerController,
} from '../../../src/controllers/nodeclass/finalizer-controller.js';
import { isKubeNotFound, Resources } from '../../../src/kube/index.js';
import { stateNodeClassResolver } from '../../../src/views/nodeclass-resolver.js';
import { eventually, startTerminationBed, type TerminationBed } from '../termination/termination-bed.js';

let bed: TerminationBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const scalewayNodeClass = {
  apiVersion: `${ScalewayNodeClassGroup}/${ScalewayNodeClassVersion}`,
  kind: ScalewayNodeClassKind,
  metadata: { name: 'team' },
  spec: {
    projectId: '5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c',
    zones: ['fr-par-1'],
    image: 'ubuntu_jammy',
    credentialsSecretRef: { name: 'team-scw', namespace: 'karpenter' },
    join: { apiServerEndpoint: 'https://10.0.0.1:6443', tokenSecretRef: { name: 'join', namespace: 'karpenter', key: 'token' } },
  },
};

function claimOf(nodeClassName: string): NodeClaim {
  return {
    apiVersion: NodeClaimApiVersion,
    kind: NodeClaimKind,
    metadata: { name: 'team-1', labels: { 'karpenter.sh/nodepool': 'team' } },
    spec: { nodeClassRef: { group: ScalewayNodeClassGroup, kind: ScalewayNodeClassKind, name: nodeClassName }, requirements: [] },
  };
}

function controllerFor(b: TerminationBed): NodeClassFinalizerController {
  const kinds = [{ group: ScalewayNodeClassGroup, version: ScalewayNodeClassVersion, kind: ScalewayNodeClassKind }];
  return createNodeClassFinalizerController({ kube: b.kube, state: b.state, clock: b.clock, kinds, logger: b.logger });
}

async function readNodeClass(b: TerminationBed): Promise<KubernetesObject | undefined> {
  return b.kube
    .get<KubernetesObject>(Resources.ScalewayNodeClass, { name: 'team' })
    .catch((err: unknown) => (isKubeNotFound(err) ? undefined : Promise.reject(err)));
}

describe('NodeClass in-use finalizer on the simulated cluster', () => {
  it('holds a deleted NodeClass while a NodeClaim references it, keeps it resolvable for listing, and lets it go after', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const controller = controllerFor(b);
    await b.kube.create(Resources.ScalewayNodeClass, scalewayNodeClass);
    await eventually(() => b.state.nodeClass(ScalewayNodeClassKind, 'team'));
    expect((await controller.reconcile()).map((a) => a.action)).toEqual(['add']);
    expect((await readNodeClass(b))?.metadata?.finalizers).toEqual([FinalizerNodeClassInUse]);

    await b.kube.create(Resources.NodeClaim, claimOf('team'));
    await b.kube.delete(Resources.ScalewayNodeClass, { name: 'team' });
    await eventually(
      () =>
        (b.state.nodeClass(ScalewayNodeClassKind, 'team')?.object.metadata as { deletionTimestamp?: string } | undefined)
          ?.deletionTimestamp,
    );
    expect(await controller.reconcile()).toEqual([]);
    expect((await readNodeClass(b))?.metadata?.deletionTimestamp).toBeDefined();
    const listed = await stateNodeClassResolver<{ metadata: { name: string } }>(b.state, b.kube, ScalewayNodeClassKind, {
      namespaces: ['karpenter'],
      label: NodeClassSecretLabel,
      forbidden: [],
    }).listNodeClasses?.();
    expect(listed?.map((n) => n.metadata.name)).toEqual(['team']);

    await b.kube.delete(Resources.NodeClaim, { name: 'team-1' });
    expect((await controller.reconcile()).map((a) => a.action)).toEqual(['remove']);
    expect(await eventually(async () => (await readNodeClass(b)) === undefined)).toBe(true);
  });

  it('leaves the NodeClasses of clouds this service does not run alone', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const ovh = {
      apiVersion: `${OVHNodeClassGroup}/${OVHNodeClassVersion}`,
      kind: OVHNodeClassKind,
      metadata: { name: 'mks' },
      spec: { serviceName: '0123456789abcdef0123456789abcdef', kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03' },
    };
    await b.kube.create(Resources.OVHNodeClass, ovh);
    await eventually(() => b.state.nodeClass(OVHNodeClassKind, 'mks'));
    expect(await controllerFor(b).reconcile()).toEqual([]);
    expect((await b.kube.get<KubernetesObject>(Resources.OVHNodeClass, { name: 'mks' })).metadata?.finalizers).toBeUndefined();
  });
});
