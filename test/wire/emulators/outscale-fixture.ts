/** A small Outscale catalog and helpers shared by the Outscale emulator wire tests. */
import type { CatalogFile, CatalogFlavor } from '../../../src/catalog/types.js';
import { createOutscaleClient, type OutscaleClient } from '../../../src/cloudprovider/outscale/client.js';
import {
  startOutscaleEmulator,
  type OutscaleEmulator,
  type OutscaleEmulatorOptions,
} from '../../../src/testbed/emulators/outscale/index.js';
import { FakeClock } from '../../../src/util/clock.js';

/** Unit prices the fixture's flavor prices are built from (fake, for the test only). */
export const UNIT = { v6p2Core: 0.04, v5p1Core: 0.05, ramGiB: 0.005, a100: 2.5 };

function flavor(name: string, vcpus: number, ramGiB: number, hourly: number, gpu?: CatalogFlavor['gpu']): CatalogFlavor {
  return {
    name,
    family: name.split('.')[0] as string,
    generation: Number(/^tinav(\d+)/.exec(name)?.[1]),
    vcpus,
    memoryMiB: ramGiB * 1024,
    arch: 'amd64',
    regions: ['eu-west-2'],
    prices: [{ region: 'eu-west-2', hourly }],
    ...(gpu ? { gpu } : {}),
  };
}

const price = (core: number, vcpus: number, ramGiB: number): number => vcpus * core + ramGiB * UNIT.ramGiB;

export const fixtureCatalog: CatalogFile = {
  cloud: 'outscale',
  retrieved: '2026-11-22',
  sources: [
    {
      title: 'test fixture: unit prices of the order of magnitude of the public catalog',
      url: 'https://docs.outscale.com/api',
      date: '2026-11-22',
    },
  ],
  regions: [{ name: 'eu-west-2', zones: ['eu-west-2a', 'eu-west-2b'] }],
  flavors: [
    flavor('tinav6.c2r4p2', 2, 4, price(UNIT.v6p2Core, 2, 4)),
    flavor('tinav6.c4r8p2', 4, 8, price(UNIT.v6p2Core, 4, 8)),
    flavor('tinav6.c4r16p2', 4, 16, price(UNIT.v6p2Core, 4, 16)),
    flavor('tinav5.c4r8p1', 4, 8, price(UNIT.v5p1Core, 4, 8)),
    flavor('tinav5.c8r32p1', 8, 32, price(UNIT.v5p1Core, 8, 32)),
    flavor('tinav5.c8r32p1-a100', 8, 32, price(UNIT.v5p1Core, 8, 32) + UNIT.a100, {
      count: 1,
      name: 'a100',
      memoryMiB: 40_960,
      manufacturer: 'nvidia',
    }),
  ],
};

export interface Bed {
  emulator: OutscaleEmulator;
  client: OutscaleClient;
  clock: FakeClock;
}

export async function startBed(options: OutscaleEmulatorOptions = {}): Promise<Bed> {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const emulator = await startOutscaleEmulator({ catalog: fixtureCatalog, clock, ...options });
  const client = createOutscaleClient({
    endpoint: emulator.url,
    region: emulator.region,
    accessKey: emulator.credentials.accessKey,
    secretKey: emulator.credentials.secretKey,
    clock,
  });
  return { emulator, client, clock };
}

/** A CreateVms request for a worker in subregion `b`. */
export function workerRequest(bed: Bed, overrides: Record<string, unknown> = {}) {
  const net = bed.emulator.network;
  return {
    ImageId: net.images.talos,
    VmType: 'tinav6.c4r8p2',
    SubnetId: net.subnets['eu-west-2b'] as string,
    SecurityGroupIds: [net.securityGroups.worker],
    KeypairName: net.keypairName,
    UserData: Buffer.from('#cloud-config\nhostname: worker\n').toString('base64'),
    BlockDeviceMappings: [{ DeviceName: '/dev/sda1', Bsu: { VolumeSize: 50, VolumeType: 'gp2' as const, DeleteOnVmDeletion: true } }],
    ...overrides,
  };
}

/** Resolves the error a promise rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}
