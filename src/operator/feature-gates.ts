/**
 * `--feature-gates` / FEATURE_GATES, as upstream Karpenter spells it: `Name=true,Other=false`. Only the gates
 * this service implements are accepted, so a typo or an upstream-only gate fails the start instead of being
 * silently ignored.
 */
import { InvalidOptionError, parseBoolean } from './option-values.js';

export interface FeatureGates {
  /** Node repair: replace nodes unhealthy past their cloud's toleration (controllers/node). Off, as upstream. */
  nodeRepair: boolean;
  /**
   * NodeOverlays (karpenter.sh/v1alpha1): their prices and extended resources reach provisioning, consolidation
   * and the extender's price score, and their status is kept. Off, as upstream's alpha gate.
   */
  nodeOverlay: boolean;
  /**
   * Dynamic Resource Allocation: ResourceClaims, ResourceClaimTemplates, DeviceClasses and ResourceSlices are
   * watched and pods with resource claims are provisioned for on flavors whose devices satisfy them. Off, pods
   * with resource claims are ignored by provisioning (upstream's behaviour); the cluster must serve resource.k8s.io/v1
   * (Kubernetes 1.34+) to turn it on.
   */
  dynamicResourceAllocation: boolean;
}

export const DefaultFeatureGates = 'NodeRepair=false,NodeOverlay=false,DynamicResourceAllocation=false';

const gateNames: Readonly<Record<string, keyof FeatureGates>> = {
  NodeRepair: 'nodeRepair',
  NodeOverlay: 'nodeOverlay',
  DynamicResourceAllocation: 'dynamicResourceAllocation',
};

export function parseFeatureGates(source: string, value: string): FeatureGates {
  const gates: FeatureGates = { nodeRepair: false, nodeOverlay: false, dynamicResourceAllocation: false };
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const [name, setting, extra] = entry.split('=').map((part) => part.trim());
    const key = gateNames[name ?? ''];
    if (!key || setting === undefined || extra !== undefined)
      throw new InvalidOptionError(source, value, `comma-separated Name=true|false, Name one of ${Object.keys(gateNames).join(', ')}`);
    gates[key] = parseBoolean(`${source} (${name})`, setting);
  }
  return gates;
}
