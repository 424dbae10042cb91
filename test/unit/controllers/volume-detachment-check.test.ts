import { describe, expect, it } from 'vitest';
import { checkVolumeDetachment } from '../../../src/controllers/termination/volume-detachment-check.js';
import { KubeForbidden, KubeUnreachable, type Kube } from '../../../src/kube/index.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

function kubeListingWith(fail: Error): Kube {
  return { list: () => Promise.reject(fail) } as unknown as Kube;
}

describe('checkVolumeDetachment when VolumeAttachments cannot be read', () => {
  const state = new ClusterState({ clock: new FakeClock() });

  it('goes on without waiting when listing is forbidden (RBAC of a hand-made install), saying why', async () => {
    const forbidden = new KubeForbidden('listing volumeattachments: forbidden', { code: 403, reason: 'Forbidden' });
    const check = await checkVolumeDetachment(kubeListingWith(forbidden), state, 'n1', 0, undefined);
    expect(check).toEqual({ kind: 'unavailable', error: forbidden });
  });

  it('retries later (throws) when the API server does not answer', async () => {
    const unreachable = new KubeUnreachable('listing volumeattachments: connection refused');
    await expect(checkVolumeDetachment(kubeListingWith(unreachable), state, 'n1', 0, undefined)).rejects.toBe(unreachable);
  });
});
