/**
 * The resource.k8s.io/v1 objects the scheduling simulation reads, as plain data: the parts of ResourceClaim,
 * ResourceClaimTemplate, DeviceClass and ResourceSlice that decide where a pod's devices can be allocated.
 */
import type { Device } from './flavor-devices.js';

export interface ObjectMeta {
  name?: string;
  namespace?: string;
}

export interface DeviceSelectorSpec {
  cel?: { expression: string };
}

/** `exactly` or one `firstAvailable` entry: what one request (or subrequest) asks for. */
export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelectorSpec[];
  /** ExactCount (default) or All. */
  allocationMode?: string;
  /** ExactCount only; defaults to 1. */
  count?: number;
}

export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: (ExactDeviceRequest & { name: string })[];
}

export interface ResourceClaimSpec {
  devices?: { requests?: DeviceRequest[] };
}

export interface DeviceRequestAllocationResult {
  request?: string;
  driver: string;
  pool: string;
  device: string;
}

export interface ResourceClaim {
  metadata?: ObjectMeta;
  spec?: ResourceClaimSpec;
  status?: {
    allocation?: {
      devices?: { results?: DeviceRequestAllocationResult[] };
      nodeSelector?: { nodeSelectorTerms?: { matchFields?: { key: string; operator: string; values?: string[] }[] }[] };
    };
  };
}

export interface ResourceClaimTemplate {
  metadata?: ObjectMeta;
  spec?: { spec?: ResourceClaimSpec };
}

export interface DeviceClass {
  metadata?: ObjectMeta;
  spec?: { selectors?: DeviceSelectorSpec[] };
}

export interface ResourceSlice {
  metadata?: ObjectMeta;
  spec?: {
    driver: string;
    pool: { name: string; generation?: number; resourceSliceCount?: number };
    nodeName?: string;
    devices?: Device[];
  };
}

/** Every DRA object the simulation may need; each list may be empty. */
export interface DraObjects {
  resourceClaims?: readonly ResourceClaim[];
  resourceClaimTemplates?: readonly ResourceClaimTemplate[];
  deviceClasses?: readonly DeviceClass[];
  resourceSlices?: readonly ResourceSlice[];
}
