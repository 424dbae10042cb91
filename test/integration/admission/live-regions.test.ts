// The running service checks the region a NodeClass names against the cloud's own region list once it has
// read it (Outscale ReadRegions, Scaleway's zones from its SDK), through the real webhook and API server: a
// region the bundled catalog lacks is only a warning offline, but a denial naming the value and the regions
// that exist once the cloud's list says it is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway', 'outscale'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
});

afterAll(async () => {
  await env?.close();
});

const messageOf = (error: unknown): string => {
  const body = (error as { body?: unknown }).body;
  return typeof body === 'string' ? ((JSON.parse(body) as { message?: string }).message ?? '') : String(error);
};

async function denial(create: () => Promise<unknown>): Promise<string> {
  // The lists are read at start; a create before that is admitted with a warning, so wait for the denial.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await create();
    } catch (error) {
      return messageOf(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('never denied');
}

describe('live region lists at admission', () => {
  it('denies an Outscale region ReadRegions does not list, naming it and the regions that exist', async () => {
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    let n = 0;
    const message = await denial(() =>
      custom.createClusterCustomObject({
        group: 'karpenter.outscale.sh',
        version: 'v1alpha1',
        plural: 'outscalenodeclasses',
        body: {
          apiVersion: 'karpenter.outscale.sh/v1alpha1',
          kind: 'OutscaleNodeClass',
          metadata: { name: `nowhere-${++n}` },
          spec: {
            region: 'eu-north-9',
            clusterId: 'c',
            imageId: 'ami-0a1b2c3d',
            subnets: [{ subregion: 'eu-north-9a', subnetId: 'subnet-0a1b2c3d' }],
            securityGroupIds: ['sg-0a1b2c3d'],
          },
        },
      }),
    );
    expect(message).toContain('spec.region: Unsupported value: "eu-north-9": unknown outscale region');
    expect(message).toMatch(/accepted: .*"eu-west-2".*"cloudgouv-eu-west-1"/);
  });

  it('denies a Scaleway zone the Instance API does not serve, naming it and the zones it does', async () => {
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    let n = 0;
    const message = await denial(() =>
      custom.createClusterCustomObject({
        group: 'karpenter.scaleway.sh',
        version: 'v1alpha1',
        plural: 'scalewaynodeclasses',
        body: {
          apiVersion: 'karpenter.scaleway.sh/v1alpha1',
          kind: 'ScalewayNodeClass',
          metadata: { name: `nowhere-${++n}` },
          spec: {
            projectId: '11111111-2222-3333-4444-555555555555',
            zones: ['fr-par-9'],
            image: 'ubuntu_jammy',
            userData: '#cloud-config',
          },
        },
      }),
    );
    expect(message).toContain('spec.zones[0]: Unsupported value: "fr-par-9": unknown Scaleway zone');
    expect(message).toMatch(/accepted: .*"fr-par-1"/);
  });
});
