/**
 * The service's own footprint on a large cluster (DESIGN §6: RSS under 300 MiB, idle CPU under 5 % with 1,000
 * nodes / 10,000 pods). This process runs the simulated cluster and the Scaleway emulator: NODES Ready nodes
 * managed by karpenter-eu (a NodePool, one initialized NodeClaim per node, joined by providerID) and PODS Running
 * pods. The service runs in a child process exactly as `karpenter-eu run` starts it (kubeconfig file, Scaleway
 * credentials and endpoint in its environment). Once its caches report synced it is left idle for MEASURE_S
 * seconds: RSS sampled every second from /proc (max and last), CPU time over the window as % of one core.
 * The child runs the compiled build (dist/, what the container image runs) when `npm run build` was done.
 * Nothing is to be done in that window (consolidateAfter 1h), so the figure is the cost of watching the cluster.
 * Run: npm run bench:operator   (NODES=… PODS=… MEASURE_S=… to change; SERVICE_NODE_OPTIONS=… for the service's
 * Node.js flags, e.g. the --max-old-space-size the chart sets)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type KubernetesObject } from '@kubernetes/client-node';
import { loadCatalog } from '../src/catalog/index.js';
import { createKube, Resources } from '../src/kube/index.js';
import { StaticInstanceSource, startSimulatedCluster } from '../src/testbed/cluster/index.js';
import { applyObjects, installCrds, projectFile } from '../src/testbed/demo/install.js';
import { exampleObjects } from '../src/testbed/demo/demo-manifests.js';
import { freeLoopbackPort } from '../src/testbed/demo/free-port.js';
import { startScalewayEmulator } from '../src/testbed/emulators/scaleway/index.js';
import { createLoopbackCertificate } from '../src/util/tls.js';

const nodeCount = Number(process.env.NODES ?? 1_000);
const podCount = Number(process.env.PODS ?? 10_000);
const measureSeconds = Number(process.env.MEASURE_S ?? 60);
const flavor = 'PRO2-S';
const zones = ['fr-par-1', 'fr-par-2', 'fr-par-3'];
const project = '5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c';
const credential = {
  accessKey: 'SCWBENCH0KARPENTER0E',
  secretKey: '0c7f3b9e-5d2a-4e61-9f3c-8a1b2c3d4e5f',
  projectId: project,
  organizationId: '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
};
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function inParallel(total: number, work: (i: number) => Promise<unknown>, concurrency = 32): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waiting for ${what}: not reached`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function uuidFor(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** /proc/<pid>/status VmRSS in bytes, and utime+stime in seconds from /proc/<pid>/stat. */
function sample(pid: number): { rss: number; cpuSeconds: number } {
  const rssKiB = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return { rss: rssKiB * 1024, cpuSeconds: ticks / 100 };
}

function managedInstances(): StaticInstanceSource {
  const catalogFlavor = loadCatalog('scaleway').flavors.find((f) => f.name === flavor);
  if (!catalogFlavor) throw new Error(`flavor ${flavor} is not in the Scaleway catalog`);
  const source = new StaticInstanceSource('scaleway');
  for (let i = 0; i < nodeCount; i++) {
    const zone = zones[i % zones.length] as string;
    source.add({
      cloud: 'scaleway',
      nodeName: `node-${i}`,
      providerID: `scaleway://instance/${zone}/${uuidFor(i)}`,
      instanceType: flavor,
      region: 'fr-par',
      zone,
      arch: 'amd64',
      capacity: { cpu: String(catalogFlavor.vcpus), memory: `${catalogFlavor.memoryMiB}Mi`, pods: '110' },
      labels: {
        'karpenter.sh/nodepool': 'default',
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
        'karpenter-eu.io/cloud': 'scaleway',
      },
      taints: [],
      bootedAt: 0,
      internalIP: `10.1.${Math.floor(i / 250)}.${i % 250}`,
    });
  }
  return source;
}

function nodeClaim(i: number): KubernetesObject & Record<string, unknown> {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `default-${i}`,
      labels: {
        'karpenter.sh/nodepool': 'default',
        'node.kubernetes.io/instance-type': flavor,
        'topology.kubernetes.io/zone': zones[i % zones.length] as string,
      },
      finalizers: ['karpenter.sh/termination'],
    },
    spec: {
      nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [flavor] }],
    },
  };
}

/** The compiled service (`npm run build`, what the image runs) when present, else the sources through tsx. */
function serviceEntry(): string[] {
  const compiled = projectFile('dist/src/cli/bin.js');
  return existsSync(compiled) ? [compiled] : ['--import', 'tsx', projectFile('src/cli/bin.ts')];
}

function startService(kubeconfigPath: string, certDir: string, emulatorUrl: string, metricsPort: number): ChildProcess {
  const args = [
    ...serviceEntry(),
    'run',
    `--kubeconfig=${kubeconfigPath}`,
    '--cluster-name=bench',
    '--bind-address=127.0.0.1',
    '--webhook-port=0',
    '--extender-port=0',
    `--metrics-port=${metricsPort}`,
    `--webhook-cert-file=${join(certDir, 'tls.crt')}`,
    `--webhook-key-file=${join(certDir, 'tls.key')}`,
    '--leader-election-namespace=karpenter',
    '--log-level=warn',
  ];
  const env = {
    ...process.env,
    NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS ?? '',
    SCW_ACCESS_KEY: credential.accessKey,
    SCW_SECRET_KEY: credential.secretKey,
    SCW_DEFAULT_PROJECT_ID: project,
    SCW_DEFAULT_REGION: 'fr-par',
    SCW_API_URL: emulatorUrl,
  };
  return spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
}

const emulator = await startScalewayEmulator({ credentials: [credential] });
const cluster = await startSimulatedCluster({
  cloudSources: [managedInstances()],
  apiServer: { watchCacheSize: 100_000, kubeconfig: true },
  kubelet: { readyDelayMs: 0, podStartDelayMs: 0, pollIntervalMs: 500 },
});
try {
  const kube = createKube(cluster.kubeConfig);
  await installCrds(cluster.kubeConfig);
  const pool = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
          requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [flavor] }],
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1h' },
    },
  };
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'scaleway-credentials', namespace: 'karpenter' },
    stringData: { SCW_ACCESS_KEY: credential.accessKey, SCW_SECRET_KEY: credential.secretKey },
  };
  const token = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bootstrap-token', namespace: 'karpenter' },
    stringData: { token: 'abcdef.0123456789abcdef' },
  };
  const nodeClass = exampleObjects('scaleway/nodeclass.yaml').find((o) => o.metadata?.name === 'default') as KubernetesObject;
  await applyObjects(cluster.kubeConfig, [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'karpenter' } },
    secret,
    token,
    nodeClass,
    pool,
  ] as KubernetesObject[]);

  const t0 = performance.now();
  await waitFor('nodes Ready', () => cluster.scheduler.nodes.size === nodeCount);
  await inParallel(nodeCount, async (i) => {
    await kube.create(Resources.NodeClaim, nodeClaim(i));
    const now = new Date().toISOString();
    const conditions = ['Launched', 'Registered', 'Initialized', 'Ready'].map((type) => ({
      type,
      status: 'True',
      reason: type,
      message: '',
      lastTransitionTime: now,
    }));
    await kube.patch(
      Resources.NodeClaim,
      { name: `default-${i}` },
      {
        type: 'merge',
        body: { status: { providerID: `scaleway://instance/${zones[i % zones.length]}/${uuidFor(i)}`, nodeName: `node-${i}`, conditions } },
      },
      { status: true },
    );
  });
  const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  await inParallel(podCount, (i) =>
    core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: `pod-${i}`, labels: { app: `app-${i % 50}` } },
        spec: { containers: [{ name: 'app', image: 'pause', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
      },
    }),
  );
  await waitFor('pods Running', () => {
    let running = 0;
    for (const p of cluster.kubelet.pods.values()) if (p.status?.phase === 'Running') running++;
    return running === podCount;
  });
  console.log(
    `cluster: ${nodeCount} managed nodes (NodeClaims initialized), ${podCount} Running pods, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const certDir = mkdtempSync(join(tmpdir(), 'karpenter-eu-bench-'));
  const cert = await createLoopbackCertificate();
  writeFileSync(join(certDir, 'tls.crt'), cert.certPem);
  writeFileSync(join(certDir, 'tls.key'), cert.keyPem);
  const started = performance.now();
  const metricsPort = await freeLoopbackPort();
  const child = startService(cluster.apiServer.kubeconfigPath ?? '', certDir, emulator.url, metricsPort);
  const pid = child.pid ?? 0;
  try {
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    await waitFor('caches synced', async () =>
      (
        await fetch(`${metricsUrl}/metrics`)
          .then((r) => r.text())
          .catch(() => '')
      ).includes('karpenter_cluster_state_synced 1'),
    );
    const synced = sample(pid);
    console.log(
      `service (${serviceEntry().at(-1)}${process.env.SERVICE_NODE_OPTIONS ? `, NODE_OPTIONS=${process.env.SERVICE_NODE_OPTIONS}` : ''}): serving and synced ${((performance.now() - started) / 1000).toFixed(1)} s after start, RSS ${mib(synced.rss)}`,
    );
    // Settle: the first disruption and GC passes, then the idle window.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const first = sample(pid);
    const startedAt = performance.now();
    let maxRss = first.rss;
    let last = first;
    for (let s = 0; s < measureSeconds; s++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      last = sample(pid);
      maxRss = Math.max(maxRss, last.rss);
    }
    const wallSeconds = (performance.now() - startedAt) / 1000;
    const cpuPercent = ((last.cpuSeconds - first.cpuSeconds) / wallSeconds) * 100;
    console.log(
      `idle ${wallSeconds.toFixed(0)} s: RSS max ${mib(maxRss)}, last ${mib(last.rss)} (target < 300 MiB → ${maxRss < 300 * 2 ** 20 ? 'met' : 'MISSED'})`,
    );
    console.log(`idle CPU ${cpuPercent.toFixed(2)} % of one core (target < 5 % → ${cpuPercent < 5 ? 'met' : 'MISSED'})`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
} finally {
  await cluster.close();
  await emulator.close();
}
