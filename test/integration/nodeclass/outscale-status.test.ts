// OutscaleNodeClass status on the simulated cluster, written by the service's nodeclass.status controller
// from what Outscale answers (ReadImages, ReadSubnets, ReadSecurityGroups through the real client): the
// demo's class is Ready with the image, subnets and security groups it resolved to; a class naming an image
// that does not exist is Ready False with reason ImageNotFound and the field, and becomes Ready once fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, type KubernetesObject, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { nodeClassesFor } from '../../../src/testbed/demo/demo-manifests.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;
const api = { group: 'karpenter.outscale.sh', version: 'v1alpha1', plural: 'outscalenodeclasses' };
type Status = {
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  images?: unknown;
  subnets?: unknown;
  securityGroups?: unknown;
};

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['outscale'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
});

afterAll(async () => {
  await env?.close();
});

const statusOf = async (name: string): Promise<Status | undefined> => {
  const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  return ((await custom.getClusterCustomObject({ ...api, name })) as { status?: Status }).status;
};
const readyOf = async (name: string, reason: string) => {
  const ready = (await statusOf(name))?.conditions?.find((c) => c.type === 'Ready');
  return ready?.reason === reason ? ready : undefined;
};

describe('OutscaleNodeClass status from the cloud', () => {
  it("marks the demo's class Ready with the image, subnets and security groups it resolved to", async () => {
    await applyObjects(env.cluster.kubeConfig, nodeClassesFor('outscale', env) as KubernetesObject[]);
    await eventually(() => readyOf('default', 'Ready'), 'default Ready');
    const network = env.outscale?.network;
    const status = await statusOf('default');
    expect(status?.images).toEqual([{ id: network?.images.ubuntu, name: 'Ubuntu-22.04-2026.01.01-0' }]);
    expect(status?.subnets).toEqual(Object.entries(network?.subnets ?? {}).map(([zone, id]) => ({ id, zone })));
    expect(status?.securityGroups).toEqual([{ id: network?.securityGroups.worker, name: 'k8s-worker' }]);
  });

  it('says ImageNotFound with the field for an image that does not exist, and Ready once it is fixed', async () => {
    const [demo] = nodeClassesFor('outscale', env) as { metadata: { name: string }; spec: Record<string, unknown> }[];
    const broken = { ...demo, metadata: { name: 'broken-image' }, spec: { ...demo?.spec, imageId: 'ami-00000000' } };
    await applyObjects(env.cluster.kubeConfig, [broken as unknown as KubernetesObject]);
    const notReady = await eventually(() => readyOf('broken-image', 'ImageNotFound'), 'broken-image ImageNotFound');
    expect(notReady).toMatchObject({
      status: 'False',
      message: expect.stringContaining('spec.imageId "ami-00000000": no such image in eu-west-2') as unknown,
    });
    expect((await statusOf('broken-image'))?.images).toBeUndefined();
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.patchClusterCustomObject(
      { ...api, name: 'broken-image', body: { spec: { imageId: env.outscale?.network.images.talos } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await eventually(() => readyOf('broken-image', 'Ready'), 'broken-image Ready after the fix');
    expect((await statusOf('broken-image'))?.images).toEqual([{ id: env.outscale?.network.images.talos, name: 'talos-v1.9.0-amd64' }]);
  });

  it('says LaunchSecretNotAllowed for a user data Secret launches would refuse, names the Secret and the fix, and its NodePool is not Ready', async () => {
    const [demo] = nodeClassesFor('outscale', env) as { metadata: { name: string }; spec: Record<string, unknown> }[];
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'boot-script', namespace: 'karpenter' },
      stringData: { 'user-data': '#cloud-config\n' },
    };
    const userDataRef = { name: 'boot-script', namespace: 'karpenter', key: 'user-data' };
    const refused = {
      ...demo,
      metadata: { name: 'user-data-refused' },
      spec: { ...demo?.spec, userData: { format: 'CloudInit', secretRef: userDataRef } },
    };
    const pool = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'on-user-data-refused' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: 'user-data-refused' },
            requirements: [],
          },
        },
      },
    };
    await applyObjects(env.cluster.kubeConfig, [secret, refused, pool] as unknown as KubernetesObject[]);
    const notReady = await eventually(() => readyOf('user-data-refused', 'LaunchSecretNotAllowed'), 'user-data-refused not Ready');
    expect(notReady.status).toBe('False');
    expect(notReady.message).toContain('spec.userData.secretRef: Secret karpenter/boot-script does not carry the label');
    expect(notReady.message).toContain('kubectl label secret -n karpenter boot-script');
    // What was said is what happens: the NodePool on it is not Ready, so provisioning launches nothing there.
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const poolReady = await eventually(async () => {
      const object = (await custom.getClusterCustomObject({
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodepools',
        name: 'on-user-data-refused',
      })) as { status?: Status };
      return object.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
    }, 'the NodePool not Ready');
    expect(poolReady.message).toContain('boot-script');

    // A key the Secret does not have is said too; labelled with the key, the class is Ready.
    await custom.patchClusterCustomObject(
      { ...api, name: 'user-data-refused', body: { spec: { userData: { secretRef: { ...userDataRef, key: 'script' } } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await env.cluster.kubeConfig
      .makeApiClient(CoreV1Api)
      .patchNamespacedSecret(
        { name: 'boot-script', namespace: 'karpenter', body: { metadata: { labels: { 'karpenter-eu.io/nodeclass-secret': 'true' } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    const noKey = await eventually(() => readyOf('user-data-refused', 'LaunchSecretKeyMissing'), 'user-data-refused key missing');
    expect(noKey.message).toBe(
      'spec.userData.secretRef: Secret karpenter/boot-script has no key "script" (keys: user-data); add it or fix spec.userData.secretRef.key',
    );
    await custom.patchClusterCustomObject(
      { ...api, name: 'user-data-refused', body: { spec: { userData: { secretRef: userDataRef } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await eventually(() => readyOf('user-data-refused', 'Ready'), 'user-data-refused Ready once fixed');
  });
});
