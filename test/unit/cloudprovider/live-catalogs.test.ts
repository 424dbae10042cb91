import { describe, expect, it } from 'vitest';
import { CloudNames, type CloudName } from '../../../src/apis/v1/labels.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import type { CatalogFile } from '../../../src/catalog/types.js';
import { FakeCloudProvider } from '../../../src/cloudprovider/fake/index.js';
import { validate, type KubeObject } from '../../../src/domain/admission/index.js';
import { buildInstanceTypes } from '../../../src/domain/instancetypes/build.js';
import type { InstanceType } from '../../../src/domain/instancetypes/types.js';
import { stateAdmissionContext } from '../../../src/views/admission-context.js';
import { LiveCatalogs } from '../../../src/cloudprovider/live-catalogs.js';
import { bundledOvhInstanceTypes } from '../../../src/cloudprovider/ovhcloud/instancetypes.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

const bundled = Object.fromEntries(CloudNames.map((c) => [c, loadCatalog(c)])) as Record<CloudName, CatalogFile>;
const ovhClass = {
  apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
  kind: 'OVHNodeClass',
  metadata: { name: 'default' },
  spec: {
    serviceName: '0123456789abcdef0123456789abcdef',
    region: 'EU-WEST-PAR',
    credentialsSecretRef: { name: 'ovh', namespace: 'karpenter' },
  },
};
const pool = (...flavors: string[]): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'p' },
  spec: {
    limits: { cpu: '100' },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: flavors }],
      },
    },
  },
});

/** What the OVH provider reads for EU-WEST-PAR when the cloud has stopped selling b3-8 and sells a b4-16 the file does not know. */
function cloudAnswer(): InstanceType[] {
  const types = buildInstanceTypes(bundled.ovhcloud, 'EU-WEST-PAR').filter((t) => t.name !== 'b3-8');
  const b316 = types.find((t) => t.name === 'b3-16') as InstanceType;
  return [
    ...types,
    {
      ...b316,
      name: 'b4-16',
      labels: { ...b316.labels, 'node.kubernetes.io/instance-type': 'b4-16', 'karpenter-eu.io/instance-family': 'b4' },
      offerings: b316.offerings.map((o) => ({ ...o, pricePerHour: 0.09 })),
    },
  ];
}

function setup() {
  const state = new ClusterState({ clock: new FakeClock() });
  state.updateNodeClass('OVHNodeClass', ovhClass as never);
  const live = new LiveCatalogs(bundled);
  const admission = stateAdmissionContext({ state, catalogs: bundled, live, defaults: { gpuTaint: true, globalCredentials: {} } });
  return { live, admission };
}

describe('admission on the live catalogs', () => {
  it('before the first read: a flavor the bundled file lacks is admitted with a warning', () => {
    const { admission } = setup();
    const result = validate(pool('b4-16'), admission.contextFor('CREATE', undefined));
    expect(result.allowed).toBe(true);
    expect(result.warnings.join('\n')).toContain('"b4-16": unknown ovhcloud flavor');
  });

  it('after the provider read the region: a flavor the cloud lists is admitted silently, one it does not is denied', async () => {
    const { live, admission } = setup();
    const provider = live.recording(new FakeCloudProvider({ instanceTypes: cloudAnswer(), clock: new FakeClock() }));
    expect((await provider.getInstanceTypes({ metadata: { name: 'p' } } as never)).length).toBeGreaterThan(10);
    const context = admission.contextFor('CREATE', undefined);
    expect(validate(pool('b4-16'), context)).toMatchObject({ allowed: true, warnings: [] });
    const denied = validate(pool('b3-8'), context);
    expect(denied.allowed).toBe(false);
    expect(denied.message).toContain(
      'spec.template.spec.requirements[0].values[0]: Unsupported value: "b3-8": flavor not offered in region EU-WEST-PAR',
    );
  });

  it('keeps the bundled facts of regions no provider read', async () => {
    const { live } = setup();
    await live
      .recording(new FakeCloudProvider({ instanceTypes: cloudAnswer(), clock: new FakeClock() }))
      .getInstanceTypes({ metadata: { name: 'p' } } as never);
    const catalog = live.current().catalogs.ovhcloud as CatalogFile;
    expect(buildInstanceTypes(catalog, 'GRA7').some((t) => t.name === 'b3-8')).toBe(true);
    expect(buildInstanceTypes(catalog, 'EU-WEST-PAR').find((t) => t.name === 'b4-16')?.offerings[0]?.pricePerHour).toBe(0.09);
    expect(live.current().liveCatalogs.ovhcloud).toEqual({ regionsListed: false, flavorsOf: ['EU-WEST-PAR'] });
  });

  it('takes a monthly-billed list (gen2 flavors only) for no region: b3 stays admitted at its hourly price', async () => {
    const { live, admission } = setup();
    const monthly = buildInstanceTypes(bundled.ovhcloud, 'EU-WEST-PAR', { billing: 'monthly' });
    expect(monthly.every((t) => !t.name.startsWith('b3-'))).toBe(true);
    await live
      .recording(new FakeCloudProvider({ instanceTypes: monthly, clock: new FakeClock() }))
      .getInstanceTypes({ metadata: { name: 'p' } } as never);
    expect(live.current()).toEqual({ catalogs: bundled, liveCatalogs: {} });
    expect(validate(pool('b3-8'), admission.contextFor('CREATE', undefined))).toMatchObject({ allowed: true, warnings: [] });
  });
  it("takes the bundled list a provider answers with when the cloud cannot be read for no cloud's answer: b4-16 stays a warning", async () => {
    const { live, admission } = setup();
    const fallback = bundledOvhInstanceTypes(bundled.ovhcloud, 'EU-WEST-PAR', 'hourly');
    await live
      .recording(new FakeCloudProvider({ instanceTypes: fallback, clock: new FakeClock() }))
      .getInstanceTypes({ metadata: { name: 'p' } } as never);
    expect(live.current()).toEqual({ catalogs: bundled, liveCatalogs: {} });
    const result = validate(pool('b4-16'), admission.contextFor('CREATE', undefined));
    expect(result.allowed).toBe(true);
    expect(result.warnings.join('\n')).toContain('"b4-16": unknown ovhcloud flavor');
  });
});

describe('admission on the live region lists', () => {
  const inRegion = (region: string): KubeObject => ({ ...ovhClass, metadata: { name: 'r' }, spec: { ...ovhClass.spec, region } });

  it('before the list is read: a region the bundled file lacks is admitted with a warning', () => {
    const { admission } = setup();
    const result = validate(inRegion('AP-SOUTH-MUM'), admission.contextFor('CREATE', undefined));
    expect(result.allowed).toBe(true);
    expect(result.warnings.join('\n')).toContain('"AP-SOUTH-MUM": unknown ovhcloud region');
  });

  it('once the cloud listed its regions: one it lists is admitted silently, one it does not is denied naming the value and the regions that exist', () => {
    const { live, admission } = setup();
    live.recordRegions('ovhcloud', [{ name: 'GRA7' }, { name: 'EU-WEST-PAR' }, { name: 'AP-SOUTH-MUM', zones: ['ap-south-mum-a'] }]);
    const context = admission.contextFor('CREATE', undefined);
    expect(validate(inRegion('AP-SOUTH-MUM'), context)).toMatchObject({ allowed: true, warnings: [] });
    const denied = validate(inRegion('RBX-A'), context);
    expect(denied.allowed).toBe(false);
    expect(denied.message).toContain('spec.region: Unsupported value: "RBX-A": unknown ovhcloud region');
    expect(denied.message).toContain('accepted: "GRA7", "EU-WEST-PAR", "AP-SOUTH-MUM"');
    expect(live.current().liveCatalogs.ovhcloud).toEqual({ regionsListed: true, flavorsOf: [] });
  });

  it('keeps the zones the file knows for a listed region the cloud gave none for', () => {
    const { live } = setup();
    live.recordRegions('ovhcloud', [{ name: 'EU-WEST-PAR' }]);
    const bundledZones = bundled.ovhcloud.regions.find((r) => r.name === 'EU-WEST-PAR')?.zones;
    expect(live.current().catalogs.ovhcloud?.regions).toEqual([
      { ...bundled.ovhcloud.regions.find((r) => r.name === 'EU-WEST-PAR'), zones: bundledZones },
    ]);
  });
});
