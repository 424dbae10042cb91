/** A simulated cluster with GPU nodes of real catalog flavors, their DRA driver's slices, and kubectl at hand. */
import { execFile } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { ensureRealBinaries } from '../../../scripts/real-binaries.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import {
  type CloudInstance,
  type SimulatedCluster,
  StaticInstanceSource,
  startSimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { flavorGpu, flavorResources } from '../../../src/testbed/cluster/kubelet/sources/flavor-capacity.js';
import { SystemClock } from '../../../src/util/clock.js';

export const driver = 'gpu.nvidia.com';

/** A Scaleway machine of a catalog flavor, as the Scaleway source reports one. */
export function scalewayMachine(name: string, flavorName: string): CloudInstance {
  const flavor = loadCatalog('scaleway').flavors.find((f) => f.name === flavorName);
  if (!flavor) throw new Error(`no Scaleway flavor ${flavorName}`);
  return {
    cloud: 'scaleway',
    nodeName: name,
    providerID: `scaleway://instance/fr-par-2/${name}`,
    instanceType: flavorName,
    region: 'fr-par',
    zone: 'fr-par-2',
    arch: flavor.arch,
    ...flavorResources(flavor, 'scaleway'),
    ...flavorGpu(flavor),
    labels: {},
    taints: [],
    bootedAt: 0,
  };
}

export interface DraBed {
  cluster: SimulatedCluster;
  source: StaticInstanceSource;
  core: k8s.CoreV1Api;
  resource: k8s.ResourceV1Api;
  kubeconfigPath: string;
  /** Runs kubelet passes until the check holds (generous: the machine is shared). */
  until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs?: number): Promise<T>;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

export async function startDraBed(machines: CloudInstance[]): Promise<DraBed> {
  const source = new StaticInstanceSource('scaleway');
  for (const m of machines) source.add(m);
  const cluster = await startSimulatedCluster({
    clock: new SystemClock(),
    cloudSources: [source],
    apiServer: { kubeconfig: true },
    kubelet: { readyDelayMs: 0, podStartDelayMs: 0, pollIntervalMs: 50 },
  });
  const bed: DraBed = {
    cluster,
    source,
    core: cluster.kubeConfig.makeApiClient(k8s.CoreV1Api),
    resource: cluster.kubeConfig.makeApiClient(k8s.ResourceV1Api),
    kubeconfigPath: cluster.apiServer.kubeconfigPath ?? '',
    async until(what, check, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    kubectl(...args) {
      return new Promise((resolve) => {
        execFile(
          ensureRealBinaries().kubectl,
          ['--kubeconfig', bed.kubeconfigPath, ...args],
          { encoding: 'utf8', timeout: 30_000 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
        );
      });
    },
    close: () => cluster.close(),
  };
  // Every node Ready and every GPU node's slice published before the test starts.
  const gpuNodes = machines.filter((m) => m.gpu).map((m) => m.nodeName);
  await bed.until('nodes ready and slices published', async () => {
    const slices = (await bed.resource.listResourceSlice()).items.map((s) => s.spec.nodeName);
    const ready = [...cluster.scheduler.nodes.values()].filter(
      (n) => !n.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready'),
    );
    return (
      ready.length === machines.length && gpuNodes.every((n) => slices.includes(n)) && cluster.scheduler.dra.slices.size === gpuNodes.length
    );
  });
  return bed;
}

export const gpuClass = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name: driver },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
};

export function claimTemplate(name: string, expression: string, count = 1): k8s.V1ResourceClaimTemplate {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name },
    spec: {
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver, count, selectors: [{ cel: { expression } }] } }] } },
    },
  };
}

export function podWithClaim(name: string, claim: { resourceClaimTemplateName?: string; resourceClaimName?: string }): k8s.V1Pod {
  return {
    metadata: { name },
    spec: {
      resourceClaims: [{ name: 'gpu', ...claim }],
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.9',
          resources: { requests: { cpu: '100m', memory: '64Mi' }, claims: [{ name: 'gpu' }] },
        },
      ],
    },
  };
}
