// The operator as `karpenter-eu run` builds it, against the simulated cluster and the Scaleway emulator:
// servers up, leader elected, and a pending pod becoming a NodeClaim, a Node, and a running pod.
import { connect } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoordinationV1Api, CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { startOperator } from '../../../src/operator/operator.js';
import { parseOperatorOptions } from '../../../src/operator/options.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { nodeClassesFor, nodePoolsFor } from '../../../src/testbed/demo/demo-manifests.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

const pod: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  // Later tests read its node: consolidation must not move it (a bare pod evicted is gone).
  metadata: { name: 'web', namespace: 'default', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } },
  spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
};

/** Tests run in random order: whichever reads the web pod first places it; a second create answers 409. */
async function placeWebPod(core: CoreV1Api): Promise<void> {
  await core.createNamespacedPod({ namespace: 'default', body: pod }).catch((error: unknown) => {
    if ((error as { code?: number }).code !== 409) throw error;
  });
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor('scaleway', env), ...nodePoolsFor('scaleway')]);
});

afterAll(async () => {
  await env?.close();
});

describe('operator against the simulated cluster and the Scaleway emulator', () => {
  it('serves readiness and Karpenter metric names, and holds the lease', async () => {
    expect(env.operator.isLeading()).toBe(true);
    const ready = await fetch(`${env.operator.metricsUrl}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${env.operator.metricsUrl}/metrics`)).text();
    expect(metrics).toContain('karpenter_nodeclaims_created_total');
    expect(metrics).toContain('karpenter_cluster_state_synced 1');
    const lease = await env.cluster.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ name: 'karpenter-eu-leader-election', namespace: 'karpenter' });
    expect(lease.spec?.holderIdentity).toBe('karpenter-eu-demo');
  });

  it('holds every NodeClass of its clouds with the in-use finalizer (written through the admission webhooks)', async () => {
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    type Listed = { items: { metadata: { name: string; finalizers?: string[] } }[] };
    const held = await eventually(async () => {
      const list = (await custom.listClusterCustomObject({
        group: 'karpenter.scaleway.sh',
        version: 'v1alpha1',
        plural: 'scalewaynodeclasses',
      })) as Listed;
      return list.items.length > 0 && list.items.every((n) => n.metadata.finalizers?.includes('karpenter-eu.io/nodeclass-in-use'))
        ? list.items
        : undefined;
    }, 'nodeclass finalizers');
    expect(held.length).toBeGreaterThan(0);
  });

  it('exports the Node.js process metrics and the request latency of the webhooks and the extender', async () => {
    // The calls kube-scheduler makes (ExtenderArgs, nodeCacheCapable); the webhooks were called when beforeAll applied
    // the NodeClasses and NodePools.
    const args = JSON.stringify({
      Pod: { ...pod, metadata: { name: 'probe', namespace: 'default', uid: 'u-probe' } },
      Nodes: null,
      NodeNames: [],
    });
    for (const verb of ['filter', 'prioritize']) {
      const res = await fetch(`${env.operator.extenderUrl}/scheduler/${verb}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: args,
      });
      expect(res.status, verb).toBe(200);
    }
    const text = await (await fetch(`${env.operator.metricsUrl}/metrics`)).text();
    const count = (path: string): number =>
      Number(new RegExp(`^karpenter_eu_request_duration_seconds_count\\{path="${path}",code="200"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    for (const path of ['/validate', '/mutate', '/scheduler/filter', '/scheduler/prioritize']) expect(count(path), path).toBeGreaterThan(0);
    expect(text).toContain('# TYPE karpenter_eu_request_duration_seconds histogram');
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('turns a pending pod into a NodeClaim, a registered Node and a running pod', async () => {
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    await placeWebPod(core);
    type Claim = { metadata: { name: string; labels?: Record<string, string> }; status?: { providerID?: string; nodeName?: string } };
    const claim = await eventually(async () => {
      const list = (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as {
        items: Claim[];
      };
      return list.items.find((c) => c.status?.nodeName);
    }, 'nodeclaim registered');
    expect(claim.metadata.labels?.['karpenter.sh/nodepool']).toBe('scaleway-default');
    expect(claim.status?.providerID).toMatch(/^scaleway:\/\/instance\/fr-par-[123]\//);
    const running = await eventually(async () => {
      const p = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
      return p.status?.phase === 'Running' ? p : undefined;
    }, 'pod running');
    expect(running.spec?.nodeName).toBe(claim.status?.nodeName);
    const node = await core.readNode({ name: running.spec?.nodeName ?? '' });
    expect(node.spec?.providerID).toBe(claim.status?.providerID);
    expect(env.scaleway?.state().instances.filter((i) => i.state === 'running')).toHaveLength(1);
  });

  it("reports each node's allocatable, pod requests and DaemonSet requests with upstream's labels (karpenter_nodes_*)", async () => {
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    // The web pod's node: placed here when this test runs first.
    const running = async (): Promise<string | undefined> => {
      const p = await core.readNamespacedPod({ name: 'web', namespace: 'default' }).catch(() => undefined);
      if (!p) await placeWebPod(core);
      return p?.status?.phase === 'Running' ? p.spec?.nodeName : undefined;
    };
    const nodeName = await eventually(running, 'web running', 600);
    const daemon: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'agent-1',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'agent-uid', controller: true }],
      },
      spec: { nodeName, containers: [{ name: 'agent', image: 'agent', resources: { requests: { cpu: '250m', memory: '64Mi' } } }] },
    };
    await core.createNamespacedPod({ namespace: 'default', body: daemon });
    const series = (text: string, name: string, resource: string): string | undefined =>
      text
        .split('\n')
        .find((l) => l.startsWith(`${name}{`) && l.includes(`node_name="${nodeName}"`) && l.includes(`resource_type="${resource}"`));
    const text = await eventually(async () => {
      const body = await (await fetch(`${env.operator.metricsUrl}/metrics`)).text();
      return series(body, 'karpenter_nodes_total_daemon_requests', 'cpu') ? body : undefined;
    }, 'daemon requests reported');
    // cpu in cores, as upstream: the web pod's 1 plus the agent's 0.25.
    expect(series(text, 'karpenter_nodes_total_daemon_requests', 'cpu')).toMatch(/ 0\.25$/);
    expect(series(text, 'karpenter_nodes_total_daemon_requests', 'memory')).toMatch(/ 67108864$/);
    expect(series(text, 'karpenter_nodes_total_pod_requests', 'cpu')).toMatch(/ 1\.25$/);
    const allocatable = series(text, 'karpenter_nodes_allocatable', 'cpu') ?? '';
    expect(Number(allocatable.split(' ').pop())).toBeGreaterThanOrEqual(1.25);
    for (const label of [
      'nodepool="scaleway-default"',
      'managed="true"',
      'zone="fr-par-',
      'instance_type="',
      'capacity_type="',
      'arch="',
      'os="',
      'region="',
      'windows_build=""',
      'phase="',
    ]) {
      expect(allocatable).toContain(label);
    }
  }, 90_000);

  it('runs a second replica that serves webhooks and metrics but does not lead', async () => {
    const args = [
      '--cluster-name=karpenter-eu-demo',
      '--bind-address=127.0.0.1',
      '--webhook-port=0',
      '--extender-port=0',
      '--metrics-port=0',
      '--leader-election-namespace=karpenter',
      '--leader-election-identity=replica-2',
    ];
    const timing = ['--leader-election-lease-duration=3s', '--leader-election-renew-deadline=2s', '--leader-election-retry-period=200ms'];
    const second = await startOperator({
      config: parseOperatorOptions([...args, ...timing], env.operatorEnv),
      kubeConfig: env.cluster.kubeConfig,
      clock: new SystemClock(),
      logger: silentLogger,
      controllers: defaultControllers,
      webhookTls: await createLoopbackCertificate(),
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(second.isLeading()).toBe(false);
      expect(env.operator.isLeading()).toBe(true);
      expect((await fetch(`${second.metricsUrl}/readyz`)).status).toBe(200);
      // Per-node series come from the leader only, so a sum over replicas counts each node once.
      expect(await (await fetch(`${second.metricsUrl}/metrics`)).text()).not.toMatch(/^karpenter_nodes_allocatable\{/m);
      const review = await fetch(`${second.extenderUrl}/scheduler/filter`, {
        method: 'POST',
        body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: [] }),
      });
      expect(review.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('with --cert-secret a replica makes its own CA and serving certificate, serves them on both ports and keeps them on restart', async () => {
    const args = [
      '--cluster-name=karpenter-eu-demo',
      '--bind-address=127.0.0.1',
      '--webhook-port=0',
      '--extender-port=0',
      '--metrics-port=0',
      '--leader-election-namespace=karpenter',
      '--leader-election-identity=replica-certs',
      '--cert-secret=replica-certs-cert',
      '--cert-service=karpenter-eu',
    ];
    const timing = ['--leader-election-lease-duration=3s', '--leader-election-renew-deadline=2s', '--leader-election-retry-period=200ms'];
    const start = (): ReturnType<typeof startOperator> =>
      startOperator({
        config: parseOperatorOptions([...args, ...timing], env.operatorEnv),
        kubeConfig: env.cluster.kubeConfig,
        clock: new SystemClock(),
        logger: silentLogger,
        controllers: defaultControllers,
      });
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    const stored = async (): Promise<Record<string, string>> => {
      const secret = await core.readNamespacedSecret({ name: 'replica-certs-cert', namespace: 'karpenter' });
      return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    };
    const served = (url: string, ca: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(url);
        const socket = connect({ host: hostname, port: Number(port), servername: 'karpenter-eu.karpenter.svc', ca }, () => {
          resolve(socket.getPeerCertificate().fingerprint256);
          socket.end();
        });
        socket.on('error', reject);
      });
    const first = await start();
    let data: Record<string, string>;
    try {
      data = await stored();
      const leaf = new X509Certificate(data['tls.crt'] ?? '').fingerprint256;
      expect(await served(first.webhookUrl, data['ca.crt'] ?? '')).toBe(leaf);
      expect(await served(first.extenderUrl, data['ca.crt'] ?? '')).toBe(leaf);
    } finally {
      await first.stop();
    }
    const restarted = await start();
    try {
      expect(await stored()).toEqual(data);
    } finally {
      await restarted.stop();
      await core.deleteNamespacedSecret({ name: 'replica-certs-cert', namespace: 'karpenter' });
    }
  }, 60_000);
});
