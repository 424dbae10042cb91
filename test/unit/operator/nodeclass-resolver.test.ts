import { describe, expect, it } from 'vitest';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import type { Kube } from '../../../src/kube/index.js';
import { stateNodeClassResolver } from '../../../src/operator/nodeclass-resolver.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

function stateWith(...objects: { kind: string; name: string; deleting?: boolean }[]): ClusterState {
  const state = new ClusterState({ clock: new FakeClock() });
  for (const o of objects) state.updateNodeClass(o.kind, { metadata: { name: o.name, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) } as { name: string } });
  return state;
}

describe('stateNodeClassResolver', () => {
  const kube = {} as Kube;

  it('lists the NodeClasses of its kind, deleted ones its finalizer still holds included: their NodeClaims\' instances stay findable after a restart', async () => {
    const state = stateWith({ kind: 'OutscaleNodeClass', name: 'a' }, { kind: 'OutscaleNodeClass', name: 'held', deleting: true }, { kind: 'ScalewayNodeClass', name: 'b' });
    const listed = await stateNodeClassResolver<{ metadata: { name: string } }>(state, kube, 'OutscaleNodeClass').listNodeClasses?.();
    expect(listed?.map((n) => n.metadata.name)).toEqual(['a', 'held']);
  });

  it('refuses a missing or deleting NodeClass with NodeClassNotReadyError naming it', async () => {
    const resolver = stateNodeClassResolver(stateWith({ kind: 'OutscaleNodeClass', name: 'gone', deleting: true }), kube, 'OutscaleNodeClass');
    await expect(resolver.getNodeClass('missing')).rejects.toThrow(new NodeClassNotReadyError('getting OutscaleNodeClass "missing": it does not exist'));
    await expect(resolver.getNodeClass('gone')).rejects.toThrow(new NodeClassNotReadyError('getting OutscaleNodeClass "gone": it is being deleted'));
  });
});
