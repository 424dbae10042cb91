/**
 * `cloud.ProjectKubeNodePoolCreation` → a pool draft, refusing what MKS refuses: an unknown flavor or one
 * not offered in the cluster's region, a zone outside the region (and no zone in a 3-AZ region), a bad
 * name, sizes out of order, anti-affinity pools above 5 nodes, monthly billing on a flavor without a
 * monthly plan.
 */
import { badRequest } from './api-error.js';
import {
  optionalBoolean,
  optionalInteger,
  optionalNumber,
  optionalObject,
  optionalString,
  optionalStringArray,
  rejectUndescribed,
  type Body,
} from './body-fields.js';
import { isFlavorOffered, type EmulatorContext } from './context.js';
import { EMPTY_TEMPLATE, parseTemplate } from './pool-template.js';
import type { AutoscalingSettings, ClusterRecord } from './records.js';
import type { PoolDraft } from './store.js';

const CREATE_FIELDS = [
  'name',
  'flavorName',
  'desiredNodes',
  'minNodes',
  'maxNodes',
  'autoscale',
  'autoscaling',
  'monthlyBilled',
  'antiAffinity',
  'availabilityZones',
  'attachFloatingIps',
  'template',
] as const;

/** Lower-case alphanumerics and dashes, starting and ending alphanumeric (no `_`, as the MKS docs warn). */
const POOL_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export const DEFAULT_AUTOSCALING: AutoscalingSettings = {
  scaleDownUnneededTimeSeconds: 600,
  scaleDownUnreadyTimeSeconds: 1200,
  scaleDownUtilizationThreshold: 0.5,
};

export function parseAutoscaling(body: Body, current: AutoscalingSettings): AutoscalingSettings {
  const a = optionalObject(body, 'autoscaling');
  if (!a) return current;
  return {
    scaleDownUnneededTimeSeconds:
      optionalInteger(a, 'scaleDownUnneededTimeSeconds', 'autoscaling.scaleDownUnneededTimeSeconds') ??
      current.scaleDownUnneededTimeSeconds,
    scaleDownUnreadyTimeSeconds:
      optionalInteger(a, 'scaleDownUnreadyTimeSeconds', 'autoscaling.scaleDownUnreadyTimeSeconds') ?? current.scaleDownUnreadyTimeSeconds,
    scaleDownUtilizationThreshold:
      optionalNumber(a, 'scaleDownUtilizationThreshold', 'autoscaling.scaleDownUtilizationThreshold') ??
      current.scaleDownUtilizationThreshold,
  };
}

export function parseFloatingIps(body: Body, current: { enabled: boolean }): { enabled: boolean } {
  const f = optionalObject(body, 'attachFloatingIps');
  if (!f) return current;
  return { enabled: optionalBoolean(f, 'enabled', 'attachFloatingIps.enabled') ?? current.enabled };
}

/** min ≤ desired ≤ max, and the anti-affinity cap. */
export function checkSizes(sizes: { desiredNodes: number; minNodes: number; maxNodes: number }, antiAffinity: boolean, cap: number): void {
  const { desiredNodes, minNodes, maxNodes } = sizes;
  if (antiAffinity && (maxNodes > cap || desiredNodes > cap)) {
    throw badRequest(
      `[InvalidDataError] a node pool with antiAffinity enabled cannot have more than ${cap} nodes (maxNodes ${maxNodes}, desiredNodes ${desiredNodes})`,
    );
  }
  if (minNodes > maxNodes)
    throw badRequest(`[InvalidDataError] minNodes (${minNodes}) must be lower than or equal to maxNodes (${maxNodes})`);
  if (desiredNodes < minNodes || desiredNodes > maxNodes) {
    throw badRequest(`[InvalidDataError] desiredNodes (${desiredNodes}) must be between minNodes (${minNodes}) and maxNodes (${maxNodes})`);
  }
}

function checkFlavor(emu: EmulatorContext, cluster: ClusterRecord, name: string): void {
  const flavor = emu.flavorsByName.get(name);
  const offered = [...emu.flavorsByName.values()].filter((f) => isFlavorOffered(f, cluster)).map((f) => f.name);
  if (!flavor || !isFlavorOffered(flavor, cluster)) {
    throw badRequest(
      `[InvalidDataError] flavorName "${name}" is not available in region ${cluster.region}; accepted: ${offered.join(', ')}`,
    );
  }
}

function checkZones(cluster: ClusterRecord, zones: string[]): void {
  if (zones.length > 1) throw badRequest(`[InvalidDataError] availabilityZones: only 1 zone is supported for now, got ${zones.length}`);
  for (const zone of zones) {
    if (!cluster.zones.includes(zone)) {
      throw badRequest(
        `[InvalidDataError] availabilityZones: zone "${zone}" does not exist in region ${cluster.region}; accepted: ${cluster.zones.join(', ')}`,
      );
    }
  }
  if (zones.length === 0 && cluster.zones.length > 1) {
    throw badRequest(
      `[InvalidDataError] availabilityZones is required in the multi-zone region ${cluster.region}; accepted: ${cluster.zones.join(', ')}`,
    );
  }
}

function checkMonthly(emu: EmulatorContext, flavorName: string): void {
  const flavor = emu.flavorsByName.get(flavorName);
  if (!flavor?.prices.some((p) => p.monthly !== undefined)) {
    throw badRequest(`[InvalidDataError] monthlyBilled is not available for flavor "${flavorName}": only gen2 flavors have a monthly plan`);
  }
}

export function parseCreateBody(emu: EmulatorContext, cluster: ClusterRecord, body: Body): PoolDraft {
  rejectUndescribed(body, CREATE_FIELDS);
  const flavorName = optionalString(body, 'flavorName');
  if (flavorName === undefined) throw badRequest('Missing parameter(s): flavorName');
  checkFlavor(emu, cluster, flavorName);
  const name = optionalString(body, 'name') ?? `nodepool-${emu.ids.hex(8)}`;
  if (!POOL_NAME.test(name)) {
    throw badRequest(
      `[InvalidDataError] name "${name}" is invalid: use 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  const antiAffinity = optionalBoolean(body, 'antiAffinity') ?? false;
  const cap = emu.settings.maxAntiAffinityNodes;
  const sizes = {
    desiredNodes: optionalInteger(body, 'desiredNodes') ?? 1,
    minNodes: optionalInteger(body, 'minNodes') ?? 0,
    maxNodes: optionalInteger(body, 'maxNodes') ?? (antiAffinity ? cap : 100),
  };
  checkSizes(sizes, antiAffinity, cap);
  const availabilityZones = optionalStringArray(body, 'availabilityZones') ?? [];
  checkZones(cluster, availabilityZones);
  const monthlyBilled = optionalBoolean(body, 'monthlyBilled') ?? false;
  if (monthlyBilled) checkMonthly(emu, flavorName);
  const template = optionalObject(body, 'template');
  return {
    clusterId: cluster.id,
    projectId: cluster.serviceName,
    name,
    flavor: flavorName,
    availabilityZones,
    ...sizes,
    autoscale: optionalBoolean(body, 'autoscale') ?? false,
    autoscaling: parseAutoscaling(body, DEFAULT_AUTOSCALING),
    monthlyBilled,
    antiAffinity,
    attachFloatingIps: parseFloatingIps(body, { enabled: false }),
    template: template ? parseTemplate(template) : structuredClone(EMPTY_TEMPLATE),
  };
}
