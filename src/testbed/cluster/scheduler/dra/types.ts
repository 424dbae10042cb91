/** resource.k8s.io/v1 objects in wire form (as the API server sends them), the fields the scheduler reads. */
import { type V1NodeSelector, type V1ObjectMeta } from '@kubernetes/client-node';
import { type Device } from '../../../../domain/dra/flavor-devices.js';

export interface DeviceSelector {
  cel?: { expression: string };
}

export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  allocationMode?: 'ExactCount' | 'All';
  count?: number;
}

export interface DeviceSubRequest extends ExactDeviceRequest {
  name: string;
}

export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface DeviceConstraint {
  requests?: string[];
  matchAttribute?: string;
}

export interface DeviceRequestAllocationResult {
  request: string;
  driver: string;
  pool: string;
  device: string;
}

export interface AllocationResult {
  devices: { results: DeviceRequestAllocationResult[] };
  nodeSelector?: V1NodeSelector;
}

export interface ConsumerReference {
  apiGroup?: string;
  resource: string;
  name: string;
  uid: string;
}

export interface WireResourceClaim {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec: { devices?: { requests?: DeviceRequest[]; constraints?: DeviceConstraint[] } };
  status?: { allocation?: AllocationResult; reservedFor?: ConsumerReference[] };
}

export interface WireDeviceClass {
  metadata: V1ObjectMeta;
  spec?: { selectors?: DeviceSelector[] };
}

export interface WireResourceSlice {
  metadata: V1ObjectMeta;
  spec: {
    driver: string;
    nodeName?: string;
    allNodes?: boolean;
    pool: { name: string; generation: number; resourceSliceCount: number };
    devices?: Device[];
  };
}

/** A device of a slice reachable from the node being tried, with where it comes from. */
export interface CandidateDevice {
  driver: string;
  pool: string;
  device: Device;
}

/**
 * Whether a device satisfies every selector (a DeviceClass's, then a request's): CEL expressions over
 * `device.driver`, `device.attributes[domain]`, `device.capacity[domain]`. Injected so that tests can replace
 * the product's evaluator, the default.
 */
export type DeviceSelectorMatcher = (device: CandidateDevice, selectors: readonly DeviceSelector[]) => boolean;

export function deviceId(d: { driver: string; pool: string; device: string }): string {
  return `${d.driver}/${d.pool}/${d.device}`;
}

/** Set by the scheduler with the allocation; the resourceclaim controller removes it when it deallocates. */
export const FinalizerDeleteProtection = 'resource.kubernetes.io/delete-protection';
