import { describe, expect, it } from 'vitest';
import type { V1Secret } from '@kubernetes/client-node';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import { NodeClassSecretLabel, type SecretAccessPolicy } from '../../../src/domain/secrets/secret-access.js';
import type { Kube } from '../../../src/kube/index.js';
import { stateNodeClassResolver } from '../../../src/views/nodeclass-resolver.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

function stateWith(...objects: { kind: string; name: string; deleting?: boolean }[]): ClusterState {
  const state = new ClusterState({ clock: new FakeClock() });
  for (const o of objects)
    state.updateNodeClass(o.kind, {
      metadata: { name: o.name, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) } as { name: string },
    });
  return state;
}

describe('stateNodeClassResolver', () => {
  const kube = {} as Kube;
  const anyLabelled: SecretAccessPolicy = { namespaces: ['karpenter'], label: NodeClassSecretLabel, forbidden: [] };

  it("lists the NodeClasses of its kind, deleted ones its finalizer still holds included: their NodeClaims' instances stay findable after a restart", async () => {
    const state = stateWith(
      { kind: 'OutscaleNodeClass', name: 'a' },
      { kind: 'OutscaleNodeClass', name: 'held', deleting: true },
      { kind: 'ScalewayNodeClass', name: 'b' },
    );
    const listed = await stateNodeClassResolver<{ metadata: { name: string } }>(
      state,
      kube,
      'OutscaleNodeClass',
      anyLabelled,
    ).listNodeClasses?.();
    expect(listed?.map((n) => n.metadata.name)).toEqual(['a', 'held']);
  });

  it('refuses a missing or deleting NodeClass with NodeClassNotReadyError naming it', async () => {
    const resolver = stateNodeClassResolver(
      stateWith({ kind: 'OutscaleNodeClass', name: 'gone', deleting: true }),
      kube,
      'OutscaleNodeClass',
      anyLabelled,
    );
    await expect(resolver.getNodeClass('missing')).rejects.toThrow(
      new NodeClassNotReadyError('getting OutscaleNodeClass "missing": it does not exist'),
    );
    await expect(resolver.getNodeClass('gone')).rejects.toThrow(
      new NodeClassNotReadyError('getting OutscaleNodeClass "gone": it is being deleted'),
    );
  });
});

describe('stateNodeClassResolver: which Secrets a NodeClass may have read', () => {
  const policy: SecretAccessPolicy = {
    namespaces: ['karpenter'],
    label: NodeClassSecretLabel,
    forbidden: [{ namespace: 'karpenter', name: 'scaleway-credentials' }],
  };
  const secrets: Record<string, V1Secret> = {
    'karpenter/scaleway-credentials': {
      metadata: { name: 'scaleway-credentials', namespace: 'karpenter', labels: { [NodeClassSecretLabel.key]: 'true' } },
      stringData: { SCW_SECRET_KEY: 'operator-key' },
    },
    'karpenter/bootstrap-token': {
      metadata: { name: 'bootstrap-token', namespace: 'karpenter', labels: { [NodeClassSecretLabel.key]: 'true' } },
      stringData: { token: 'abcdef.0123456789abcdef' },
    },
    'karpenter/unmarked': { metadata: { name: 'unmarked', namespace: 'karpenter' }, stringData: { token: 'secret' } },
    'payments/db': {
      metadata: { name: 'db', namespace: 'payments', labels: { [NodeClassSecretLabel.key]: 'true' } },
      stringData: { password: 'hunter2' },
    },
  };
  const reads: string[] = [];
  const kube = {
    get: (_resource: unknown, key: { namespace: string; name: string }) => {
      reads.push(`${key.namespace}/${key.name}`);
      const secret = secrets[`${key.namespace}/${key.name}`];
      return secret ? Promise.resolve(secret) : Promise.reject(new Error('not found'));
    },
  } as unknown as Kube;
  const resolver = stateNodeClassResolver(stateWith(), kube, 'ScalewayNodeClass', policy);

  it("never reads the operator's own credentials Secret, even labelled, and says why", async () => {
    reads.length = 0;
    await expect(resolver.getSecretData({ namespace: 'karpenter', name: 'scaleway-credentials' })).rejects.toThrow(NodeClassNotReadyError);
    await expect(resolver.getSecretData({ namespace: 'karpenter', name: 'scaleway-credentials' })).rejects.toThrow(
      /holds the operator's own cloud credentials/,
    );
    expect(reads).toEqual([]);
  });

  it('never reads a Secret outside the allowed namespaces', async () => {
    reads.length = 0;
    await expect(resolver.getSecretData({ namespace: 'payments', name: 'db' })).rejects.toThrow(
      /in a namespace NodeClasses may not read from; accepted namespaces: "karpenter"/,
    );
    expect(reads).toEqual([]);
  });

  it('refuses a Secret without the label, naming the label and how to add it', async () => {
    await expect(resolver.getSecretData({ namespace: 'karpenter', name: 'unmarked' })).rejects.toThrow(
      new NodeClassNotReadyError(
        'reading secret karpenter/unmarked: Secret karpenter/unmarked does not carry the label karpenter-eu.io/nodeclass-secret=true that marks Secrets NodeClasses may read; add it (kubectl label secret -n karpenter unmarked karpenter-eu.io/nodeclass-secret=true) if this Secret is meant for NodeClasses',
      ),
    );
  });

  it("hands providers a class naming the operator's own credentials Secret as one without credentialsSecretRef: the service's credentials, its Secret never read for the class", async () => {
    const own = {
      metadata: { name: 'seed' },
      spec: { projectId: 'p', credentialsSecretRef: { namespace: 'karpenter', name: 'scaleway-credentials' } },
    };
    const mine = {
      metadata: { name: 'mine' },
      spec: { projectId: 'p', credentialsSecretRef: { namespace: 'karpenter', name: 'scw-keys' } },
    };
    const state = new ClusterState({ clock: new FakeClock() });
    state.updateNodeClass('ScalewayNodeClass', own);
    state.updateNodeClass('ScalewayNodeClass', mine);
    const classes = stateNodeClassResolver<typeof mine>(state, kube, 'ScalewayNodeClass', policy);
    reads.length = 0;
    expect((await classes.getNodeClass('seed')).spec).toEqual({ projectId: 'p' });
    expect((await classes.listNodeClasses?.())?.map((c) => c.spec)).toEqual([{ projectId: 'p' }, mine.spec]);
    expect((await classes.getNodeClass('mine')).spec.credentialsSecretRef).toEqual({ namespace: 'karpenter', name: 'scw-keys' });
    expect(own.spec.credentialsSecretRef).toEqual({ namespace: 'karpenter', name: 'scaleway-credentials' });
    expect(reads).toEqual([]);
  });

  it('reads a labelled Secret of an allowed namespace', async () => {
    expect(await resolver.getSecretData({ namespace: 'karpenter', name: 'bootstrap-token' })).toEqual({ token: 'abcdef.0123456789abcdef' });
  });
});
