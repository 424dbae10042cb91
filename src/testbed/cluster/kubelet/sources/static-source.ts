/**
 * A source whose instances are set by hand: for OVHcloud pool nodes (whose emulator reports them through its
 * own API), for the demo, and for benchmarks that need 1,000 machines without a cloud round trip.
 * OVHcloud MKS nodes carry `openstack:///<instanceId>`.
 */
import { type CloudName } from '../../../../apis/v1/labels.js';
import { type CloudInstance, type CloudInstanceSource } from '../instance-source.js';

export class StaticInstanceSource implements CloudInstanceSource {
  private readonly instances = new Map<string, CloudInstance>();

  constructor(readonly cloud: CloudName) {}

  add(instance: CloudInstance): void {
    this.instances.set(instance.providerID, instance);
  }

  remove(providerID: string): boolean {
    return this.instances.delete(providerID);
  }

  running(): CloudInstance[] {
    return [...this.instances.values()];
  }
}

export function ovhProviderID(instanceId: string): string {
  return `openstack:///${instanceId}`;
}
