// NodeClass Ready on the simulated cluster, written by the service's nodeclass.status controller: the
// demo's OVH classes (credentials Secret present) are Ready; a class whose Secret does not exist is not,
// with the reason and the fix, and the NodePool on it reports NodeClassReady False; nor is a class whose Secret
// exists without the label that lets NodeClasses read it (launches would refuse it).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects, readManifest } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';

let env: DemoEnvironment;

type Conditions = { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } };

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

const broken = {
  apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
  kind: 'OVHNodeClass',
  metadata: { name: 'broken' },
  spec: {
    serviceName: '0123456789abcdef0123456789abcdef',
    region: 'EU-WEST-PAR',
    credentialsSecretRef: { name: 'no-such-secret', namespace: 'karpenter' },
  },
};
/** The seed's `kubectl create secret generic … -n karpenter` as written: the keys, not the NodeClass label. */
const unlabelledSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'unlabelled-credentials', namespace: 'karpenter' },
  stringData: { applicationKey: 'k', applicationSecret: 's', consumerKey: 'c' },
};
const unlabelled = {
  ...broken,
  metadata: { name: 'unlabelled' },
  spec: { ...broken.spec, credentialsSecretRef: { name: 'unlabelled-credentials', namespace: 'karpenter' } },
};
const brokenPool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'on-broken' },
  spec: {
    limits: { cpu: '10' },
    template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'broken' }, requirements: [] } },
  },
};

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
  });
  await applyObjects(env.cluster.kubeConfig, [
    ...readManifest('manifests/examples/ovhcloud/nodeclass.yaml'),
    broken as KubernetesObject,
    brokenPool as KubernetesObject,
    unlabelledSecret as KubernetesObject,
    unlabelled as KubernetesObject,
  ]);
});

afterAll(async () => {
  await env?.close();
});

/** GET as kubectl asks for `kubectl get`: a meta.k8s.io/v1 Table. */
function getTable(path: string): Promise<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }> {
  const server = env.cluster.kubeConfig.getCurrentCluster()?.server ?? '';
  const headers = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json', authorization: 'Bearer simulated' };
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(body) as never));
    };
    const request = server.startsWith('https:')
      ? httpsGet(`${server}${path}`, { headers, rejectUnauthorized: false }, onResponse)
      : httpGet(`${server}${path}`, { headers }, onResponse);
    request.on('error', reject);
  });
}

describe('NodeClass status on the simulated cluster', () => {
  const ready = async (plural: string, name: string, group = 'karpenter.ovhcloud.sh', version = 'v1alpha1') => {
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const object = (await custom.getClusterCustomObject({ group, version, plural, name })) as Conditions;
    return object.status?.conditions?.find((c) => c.type === (plural === 'nodepools' ? 'NodeClassReady' : 'Ready'));
  };
  /** The tests below read both classes' READY: the example's True and broken's False, each written by its own reconcile. */
  const bothReadyWritten = () =>
    eventually(async () => {
      const [good, bad] = await Promise.all([ready('ovhnodeclasses', 'default'), ready('ovhnodeclasses', 'broken')]);
      return good?.status === 'True' && bad?.status === 'False' ? true : undefined;
    }, 'default Ready True and broken Ready False');

  it("marks the demo's OVH classes Ready", async () => {
    for (const name of ['default', 'monthly', 'anti-affinity']) {
      const condition = await eventually(async () => ready('ovhnodeclasses', name), `${name} Ready written`);
      expect(condition, name).toMatchObject({
        status: 'True',
        reason: 'Ready',
        message: 'credentials from Secret karpenter/ovh-nodeclass-credentials',
      });
    }
  });

  it('marks a class whose credentials Secret is missing not Ready, naming the Secret and the keys, and its NodePool NodeClassReady False', async () => {
    const condition = await eventually(async () => ready('ovhnodeclasses', 'broken'), 'broken Ready written');
    expect(condition).toMatchObject({
      status: 'False',
      reason: 'CredentialsSecretNotFound',
      message: 'Secret karpenter/no-such-secret does not exist: create it with keys applicationKey, applicationSecret, consumerKey',
    });
    const pool = await eventually(async () => {
      const c = await ready('nodepools', 'on-broken', 'karpenter.sh', 'v1');
      return c?.status === 'False' ? c : undefined;
    }, 'NodePool NodeClassReady False');
    expect(pool.message).toContain('Secret karpenter/no-such-secret does not exist');
  });

  it("marks a class whose region is not its cluster's not Ready, with both values, and its NodePool is not Ready (provisioning skips it)", async () => {
    const [demo] = readManifest('manifests/examples/ovhcloud/nodeclass.yaml') as unknown as { spec: Record<string, unknown> }[];
    const wrongRegion = { ...demo, metadata: { name: 'wrong-region' }, spec: { ...demo?.spec, region: 'GRA7' } };
    const pool = {
      ...brokenPool,
      metadata: { name: 'on-wrong-region' },
      spec: {
        ...brokenPool.spec,
        template: {
          spec: { ...brokenPool.spec.template.spec, nodeClassRef: { ...brokenPool.spec.template.spec.nodeClassRef, name: 'wrong-region' } },
        },
      },
    };
    await applyObjects(env.cluster.kubeConfig, [wrongRegion, pool] as unknown as KubernetesObject[]);
    const condition = await eventually(async () => {
      const c = await ready('ovhnodeclasses', 'wrong-region');
      return c?.status === 'False' ? c : undefined;
    }, 'wrong-region Ready False');
    expect(condition).toMatchObject({
      reason: 'RegionMismatch',
      message:
        'spec.region "GRA7" is not the region of MKS cluster 6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03 (spec.kubeId), which is in "EU-WEST-PAR": set spec.region to "EU-WEST-PAR" or remove it (the cluster\'s region is used then)',
    });
    const nodePool = await eventually(async () => {
      const c = await ready('nodepools', 'on-wrong-region', 'karpenter.sh', 'v1');
      return c?.status === 'False' ? c : undefined;
    }, 'NodePool NodeClassReady False');
    expect(nodePool.message).toContain('spec.region "GRA7"');
  });

  it('marks a class whose credentials Secret lacks the NodeClass label not Ready, naming the label and the kubectl fix', async () => {
    const condition = await eventually(async () => ready('ovhnodeclasses', 'unlabelled'), 'unlabelled Ready written');
    expect(condition).toMatchObject({
      status: 'False',
      reason: 'CredentialsSecretNotAllowed',
      message: expect.stringContaining(
        'kubectl label secret -n karpenter unlabelled-credentials karpenter-eu.io/nodeclass-secret=true',
      ) as unknown,
    });
  });

  it("answers kubectl's Table request with the CRD's printer columns, READY included", async () => {
    await bothReadyWritten();
    const table = await getTable('/apis/karpenter.ovhcloud.sh/v1alpha1/ovhnodeclasses');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Region', 'Monthly', 'Ready', 'Age', 'Project', 'Cluster']);
    const rows = new Map(table.rows.map((r) => [r.cells[0], r.cells]));
    expect(rows.get('default')?.slice(1, 4)).toEqual(['EU-WEST-PAR', false, 'True']);
    expect([rows.get('broken')?.[1], rows.get('broken')?.[3]]).toEqual(['EU-WEST-PAR', 'False']);
    // No kubeId: kube-apiserver's CRD table convertor sends a null cell for a path that finds nothing.
    expect(rows.get('broken')?.[6]).toBeNull();
  });

  it('shows READY in the real kubectl 1.31 `get ovhnodeclasses,nodepools`', async () => {
    await bothReadyWritten();
    const kubeconfig = env.kubeconfigPath ?? '';
    expect(kubeconfig).not.toBe('');
    // Asynchronously: the simulated API server answers from this process.
    const kubectl = (...args: string[]) =>
      promisify(execFile)(ensureRealBinaries().kubectl, ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout: 30_000 }).then(
        (r) => r.stdout,
      );
    const out = await kubectl('get', 'ovhnodeclasses');
    const [header, ...lines] = out.trim().split('\n');
    expect(header?.split(/\s+/)).toEqual(['NAME', 'REGION', 'MONTHLY', 'READY', 'AGE']);
    const readyOf = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/\s+/)[3];
    expect(readyOf('default')).toBe('True');
    expect(readyOf('broken')).toBe('False');
    const pools = await kubectl('get', 'nodepools', '-o', 'wide');
    expect(pools.split('\n')[0]).toMatch(/^NAME\s+NODECLASS\s+NODES\s+READY\s+AGE/);
  });
});
