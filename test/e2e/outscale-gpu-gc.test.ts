// Flexible GPUs are billed while allocated, linked or not. The operator as `karpenter-eu run` builds it (its
// provider behind the metrics, live-catalog and fence decorators, and behind the router when a second cloud is
// configured) against the Outscale emulator must release a GPU left over by a NodeClaim that no longer exists,
// and must keep the GPU of a live NodeClaim whose link to its VM has not gone through yet: that node is still
// registering and needs it.
import { CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutscaleClient, type OutscaleClient } from '../../src/cloudprovider/outscale/client.js';
import { ownerTags } from '../../src/cloudprovider/outscale/gpu-claims.js';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { nodeClassesFor, nodePoolsFor } from '../../src/testbed/demo/demo-manifests.js';
import { type DemoCloud, DemoClusterName, type DemoEnvironment, startDemoEnvironment } from '../../src/testbed/demo/environment.js';
import { applyObjects } from '../../src/testbed/demo/install.js';
import type { OutscaleEmulator } from '../../src/testbed/emulators/outscale/index.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { scrape } from '../metrics-scrape.js';
import { eventually } from './demo-harness.js';

let env: DemoEnvironment | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

const gpuPod: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'cuda', namespace: 'default' },
  spec: {
    nodeSelector: { 'karpenter-eu.io/instance-gpu-name': 'l40' },
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    containers: [
      {
        name: 'cuda',
        image: 'cuda',
        resources: { requests: { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
      },
    ],
  },
};

function clientOf(outscale: OutscaleEmulator): OutscaleClient {
  return createOutscaleClient({ endpoint: outscale.url, region: outscale.region, ...outscale.credentials });
}

/** What a launch interrupted after creating and tagging its GPU leaves once its NodeClaim is gone. */
async function leftoverGpu(outscale: OutscaleEmulator): Promise<string> {
  const client = clientOf(outscale);
  const { FlexibleGpu } = await client.createFlexibleGpu({
    ModelName: 'nvidia-l40',
    SubregionName: outscale.subregions[0] as string,
    Generation: 'v7',
    DeleteOnVmDeletion: true,
  });
  const owner = { clusterName: DemoClusterName, nodeClaimName: 'outscale-gpu-gone', token: '6d0b7c1e-0000-4000-8000-000000000001' };
  await client.createTags({ ResourceIds: [FlexibleGpu.FlexibleGpuId], Tags: ownerTags(owner) });
  return FlexibleGpu.FlexibleGpuId;
}

async function nodeClaimNames(e: DemoEnvironment): Promise<string[]> {
  const list = (await e.cluster.kubeConfig
    .makeApiClient(CustomObjectsApi)
    .listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as {
    items: { metadata: { name: string } }[];
  };
  return list.items.map((c) => c.metadata.name);
}

async function claimResourcesDeleted(e: DemoEnvironment): Promise<number | undefined> {
  const family = (await scrape(e.operator.metricsUrl)).get('karpenter_eu_garbage_collection_claim_resources_deleted_total');
  return family?.samples.find((s) => s.labels.provider === 'outscale' && s.labels.kind === 'flexible-gpu')?.value;
}

describe('claim resources garbage-collected by the running operator (Outscale emulator)', () => {
  // Two clouds: the longest chain (fence, live catalogs, router, metrics); each wrapper alone is covered by
  // test/unit/cloudprovider/decorate.test.ts.
  it.each<{ clouds: DemoCloud[] }>([{ clouds: ['outscale', 'scaleway'] }])(
    'with $clouds configured: releases a GPU whose NodeClaim is gone and keeps the unlinked GPU of a NodeClaim still launching',
    { timeout: 180_000 },
    async ({ clouds }) => {
      const e = (env = await startDemoEnvironment({
        clouds,
        clock: new SystemClock(),
        logger: silentLogger,
        controllers: defaultControllers,
      }));
      const outscale = e.outscale as OutscaleEmulator;
      await applyObjects(e.cluster.kubeConfig, [...nodeClassesFor('outscale', e), ...nodePoolsFor('outscale')]);
      // The GPU of the launch below is created and tagged, but its link to the stopped VM keeps failing.
      const linkFails = outscale.faults.add({ match: { action: 'LinkFlexibleGpu' }, fault: { kind: 'server-error', status: 503 } });
      await e.cluster.kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({ namespace: 'default', body: gpuPod });
      const attaching = await eventually('the launching NodeClaim has its GPU, unlinked', () => {
        const [gpu] = outscale.state().flexibleGpus;
        return gpu && gpu.vmId === undefined && outscale.calls.records.some((r) => r.action === 'LinkFlexibleGpu') ? gpu.id : undefined;
      });
      const [launching] = await nodeClaimNames(e);
      expect(launching).toBeDefined();

      const leftover = await leftoverGpu(outscale);
      // The grace period (30 s) runs over consecutive passes every 5 s: the leftover goes within about a minute.
      await eventually('the leftover GPU released', () => !outscale.state().flexibleGpus.some((g) => g.id === leftover), 90_000);

      // By then the launching NodeClaim's GPU has been unlinked for longer than the grace period: it stays.
      expect(await nodeClaimNames(e)).toEqual([launching]);
      expect(outscale.state().flexibleGpus.map((g) => ({ id: g.id, vmId: g.vmId }))).toEqual([{ id: attaching, vmId: undefined }]);
      expect(await claimResourcesDeleted(e)).toBe(1);

      // Once the link goes through, the launch finishes with that same GPU and the pod runs.
      outscale.faults.remove(linkFails);
      await eventually(
        'the pod running',
        async () =>
          (await e.cluster.kubeConfig.makeApiClient(CoreV1Api).readNamespacedPod({ name: 'cuda', namespace: 'default' })).status?.phase ===
          'Running',
        90_000,
      );
      const gpus = outscale.state().flexibleGpus;
      expect(gpus.map((g) => g.id)).toEqual([attaching]);
      expect(outscale.state().instances.find((vm) => vm.id === gpus[0]?.vmId)?.tags['karpenter.sh/nodeclaim']).toBe(launching);
    },
  );
});
