// The clouds' region lists as admission reads them (CloudProvider.listRegions), through the real clients
// against the emulators: OVH's MKS regions of the project, Outscale's ReadRegions with the subregions of its
// own region, Scaleway's zones as its SDK lists them; a failed or empty answer is an error, never a list.
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/index.js';
import { startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';
import { startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';
import { startTestbed, type Testbed } from './scaleway-testbed.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});
const track = <T extends { close(): Promise<void> }>(bed: T): T => (closers.push(() => bed.close()), bed);

describe('region lists through the real clients', () => {
  it('OVH: the MKS regions of the operator project (GET capabilities/kube/regions)', async () => {
    const bed: OvhTestbed = track(await startOvhTestbed());
    const [list] = await bed.provider.listRegions();
    expect(list?.error).toBeUndefined();
    expect(list?.regions?.map((r) => r.name).sort()).toEqual(
      loadCatalog('ovhcloud')
        .regions.map((r) => r.name)
        .sort(),
    );
    expect(bed.emulator.calls.count({ action: 'listCapabilityRegions' })).toBe(1);
  });

  it('OVH: an empty or failed answer is an error, not an empty list', async () => {
    const bed: OvhTestbed = track(await startOvhTestbed());
    bed.emulator.faults.add({ match: { action: 'listCapabilityRegions' }, fault: { kind: 'empty-body' } });
    const [list] = await bed.provider.listRegions();
    expect(list?.regions).toBeUndefined();
    expect(list?.error?.message).toContain('listing the mks regions of project');
  });

  it('Outscale: ReadRegions, with the subregions ReadSubregions gives for its own region', async () => {
    const bed: OutscaleTestbed = track(await startOutscaleTestbed());
    const [list] = await bed.provider.listRegions();
    expect(list?.error).toBeUndefined();
    const own = list?.regions?.find((r) => r.name === bed.emulator.region);
    expect(own?.zones).toEqual(bed.emulator.subregions);
    expect(own?.zones?.every((z) => z.startsWith(bed.emulator.region))).toBe(true);
    expect(list?.regions?.map((r) => r.name)).toEqual(expect.arrayContaining(['eu-west-2', 'cloudgouv-eu-west-1']));
    expect(list?.regions?.filter((r) => r.name !== bed.emulator.region).every((r) => r.zones === undefined)).toBe(true);
  });

  it('Outscale: a ReadRegions answer without its list is an error', async () => {
    const bed: OutscaleTestbed = track(await startOutscaleTestbed());
    bed.emulator.faults.add({ match: { action: 'ReadRegions' }, fault: { kind: 'empty-object' } });
    const [list] = await bed.provider.listRegions();
    expect(list?.regions).toBeUndefined();
    expect(list?.error).toBeInstanceOf(Error);
  });

  it("Scaleway: the Instance API's zones by region, as the SDK lists them", async () => {
    const bed: Testbed = track(await startTestbed());
    const [list] = await bed.provider.listRegions();
    expect(list?.regions?.find((r) => r.name === 'fr-par')?.zones).toEqual(['fr-par-1', 'fr-par-2', 'fr-par-3']);
    expect(list?.regions?.map((r) => r.name)).toEqual(expect.arrayContaining(['fr-par', 'nl-ams', 'pl-waw']));
  });
});
