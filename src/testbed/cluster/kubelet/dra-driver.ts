/**
 * The NVIDIA DRA driver's kubelet plugin on each simulated node: once a node of a GPU flavor is Ready it
 * publishes one ResourceSlice for it (`<node>-gpu.nvidia.com-<random>`, pool named after the node, generation 1,
 * one slice in the pool, owned by the Node) listing the devices flavorDevices gives for the machine's GPUs.
 * When the Node is deleted the garbage collector removes the slice through that ownerReference, as in a real
 * cluster where the plugin dies with its node.
 */
import { type KubeConfig, ResourceV1Api, type V1Node, type V1ObjectMeta, type V1ResourceSlice } from '@kubernetes/client-node';
import { type Device, flavorDevices } from '../../../domain/dra/flavor-devices.js';
import { ObjectCache } from '../scheduler/object-cache.js';
import { modelForm, wireForm } from '../wire-form.js';
import { type CloudInstance } from './instance-source.js';

/** A ResourceSlice as the API server sends it. */
export interface WireResourceSlice {
  apiVersion: 'resource.k8s.io/v1';
  kind: 'ResourceSlice';
  metadata: V1ObjectMeta;
  spec: {
    driver: string;
    nodeName?: string;
    pool: { name: string; generation: number; resourceSliceCount: number };
    devices: Device[];
  };
}

export interface DriverNode {
  node: V1Node;
  instance: CloudInstance;
}

/** What the driver publishes for a machine, in wire form (attributes as `{int: 0}`, not client-node's `{_int: 0}`). */
export function sliceFor(node: V1Node, instance: CloudInstance): WireResourceSlice | undefined {
  const published = instance.gpu ? flavorDevices({ gpu: instance.gpu }) : undefined;
  const nodeName = node.metadata?.name ?? '';
  if (!published || !node.metadata?.uid) return undefined;
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: {
      generateName: `${nodeName}-${published.driver}-`,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: node.metadata.uid, controller: true }],
    },
    spec: {
      driver: published.driver,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: published.devices.map((d) => ({ name: d.name, attributes: d.attributes, capacity: d.capacity })),
    },
  };
}

export class SimulatedDraDriver {
  readonly slices: ObjectCache<WireResourceSlice>;
  private readonly api: ResourceV1Api;
  /** Nodes (by uid) whose slice was created, before the watch shows it. */
  private readonly published = new Set<string>();

  constructor(kubeConfig: KubeConfig) {
    this.api = kubeConfig.makeApiClient(ResourceV1Api);
    this.slices = new ObjectCache<WireResourceSlice>(kubeConfig, '/apis/resource.k8s.io/v1/resourceslices', async () => {
      const list = await this.api.listResourceSlice();
      return { ...list, items: list.items.map((s) => wireForm<WireResourceSlice>(s, 'V1ResourceSlice')) };
    });
  }

  start(): Promise<void> {
    return this.slices.start();
  }

  stop(): Promise<void> {
    return this.slices.stop();
  }

  /** Publishes the slice of each given Ready node that has devices and has none yet. */
  async publish(nodes: readonly DriverNode[]): Promise<void> {
    const present = new Set<string>();
    for (const s of this.slices.values()) {
      const owner = s.metadata?.ownerReferences?.find((r) => r.kind === 'Node');
      if (owner) present.add(owner.uid);
    }
    for (const { node, instance } of nodes) {
      const uid = node.metadata?.uid ?? '';
      if (present.has(uid) || this.published.has(uid)) continue;
      const body = sliceFor(node, instance);
      if (!body) continue;
      this.published.add(uid);
      await this.api.createResourceSlice({ body: modelForm<V1ResourceSlice>(body, 'V1ResourceSlice') }).catch((error: unknown) => {
        this.published.delete(uid);
        throw error;
      });
    }
  }
}
