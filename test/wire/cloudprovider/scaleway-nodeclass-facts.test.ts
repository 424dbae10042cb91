// What Scaleway says about a ScalewayNodeClass's image, through the real SDK against the emulator, for the
// class's status: a marketplace label resolves to one local image per zone (Marketplace v2 local-images), a
// UUID is read from the Instance API, an unknown one is reported with the zones lacking it, and an outage
// is thrown.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScalewayNodeClass } from '../../../src/apis/v1alpha1/scaleway-nodeclass.js';
import { startTestbed, type Testbed } from './scaleway-testbed.js';

let bed: Testbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const withImage = (b: Testbed, image: string): void => {
  const current = b.resolver.nodeClasses.get('default') as ScalewayNodeClass;
  b.resolver.nodeClasses.set('default', { ...current, spec: { ...current.spec, image } });
};

describe('ScalewayNodeClass facts for its status', () => {
  it('resolves a marketplace label to an image id per zone, different in each zone', async () => {
    const b = (bed = await startTestbed());
    const facts = await b.provider.nodeClassFacts('ScalewayNodeClass', 'default');
    const resolved = facts?.image?.resolved ?? [];
    expect(resolved.map((i) => i.zone)).toEqual(['fr-par-1', 'fr-par-2', 'fr-par-3']);
    expect(resolved.every((i) => i.name === 'ubuntu_jammy' && /^[0-9a-f-]{36}$/.test(i.id))).toBe(true);
    expect(new Set(resolved.map((i) => i.id)).size).toBe(3);
    expect(b.emulator.calls.count({ action: 'listLocalImages' })).toBe(3);
  });

  it('reads an image UUID from the Instance API, and reports one the zones do not have', async () => {
    const b = (bed = await startTestbed());
    const first = (await b.provider.nodeClassFacts('ScalewayNodeClass', 'default'))?.image?.resolved[0];
    withImage(b, first?.id ?? '');
    const byId = (await b.provider.nodeClassFacts('ScalewayNodeClass', 'default'))?.image;
    // A local image id belongs to its zone only: the other zones lack it.
    expect(byId).toEqual({ field: 'spec.image', ref: first?.id, where: 'fr-par-2, fr-par-3', resolved: [] });
  });

  it('reports a label the marketplace does not know, naming every zone', async () => {
    const b = (bed = await startTestbed());
    withImage(b, 'ubuntu_nonexistent');
    expect((await b.provider.nodeClassFacts('ScalewayNodeClass', 'default'))?.image).toEqual({
      field: 'spec.image',
      ref: 'ubuntu_nonexistent',
      where: 'fr-par-1, fr-par-2, fr-par-3',
      resolved: [],
    });
  });

  it('throws when the cloud cannot be asked, so the status is left as it is', async () => {
    const b = (bed = await startTestbed());
    b.emulator.faults.add({ match: { action: 'listLocalImages' }, fault: { kind: 'server-error', status: 503 } });
    await expect(b.provider.nodeClassFacts('ScalewayNodeClass', 'default')).rejects.toThrow(/resolving image ubuntu_jammy/);
  });
});
