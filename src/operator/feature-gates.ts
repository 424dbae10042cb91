/**
 * `--feature-gates` / FEATURE_GATES, as upstream Karpenter spells it: `Name=true,Other=false`. Only the gates
 * this service implements are accepted, so a typo or an upstream-only gate fails the start instead of being
 * silently ignored.
 */
import { InvalidOptionError, parseBoolean } from './option-values.js';

export interface FeatureGates {
  /** Node repair: replace nodes unhealthy past their cloud's toleration (controllers/node). Off, as upstream. */
  nodeRepair: boolean;
}

export const DefaultFeatureGates = 'NodeRepair=false';

const gateNames: Readonly<Record<string, keyof FeatureGates>> = { NodeRepair: 'nodeRepair' };

export function parseFeatureGates(source: string, value: string): FeatureGates {
  const gates: FeatureGates = { nodeRepair: false };
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
