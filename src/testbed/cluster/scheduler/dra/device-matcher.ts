/**
 * The scheduler's device selector matcher: the product's CEL evaluator for DRA selectors, so that what
 * provisioning predicts and what the simulated kube-scheduler allocates are decided by one evaluator. A selector
 * that fails to compile or to evaluate (a missing attribute) does not match, as in kube-scheduler.
 */
import { celDevice, type CelDevice, DeviceSelectorCompiler } from '../../../../domain/dra/cel.js';
import { type Device } from '../../../../domain/dra/flavor-devices.js';
import { type CandidateDevice, type DeviceSelector, type DeviceSelectorMatcher } from './types.js';

export function deviceSelectorMatcher(): DeviceSelectorMatcher {
  const compiler = new DeviceSelectorCompiler();
  // Devices are immutable objects from slices: converting each once keeps a scheduling cycle from redoing it per selector.
  const converted = new WeakMap<Device, CelDevice | Error>();
  const asCel = (d: CandidateDevice): CelDevice | Error => {
    let cel = converted.get(d.device);
    if (!cel) {
      try {
        cel = celDevice(d.driver, d.device);
      } catch (error) {
        cel = error instanceof Error ? error : new Error(String(error));
      }
      converted.set(d.device, cel);
    }
    return cel;
  };
  return (d: CandidateDevice, selectors: readonly DeviceSelector[]): boolean => {
    if (selectors.length === 0) return true;
    const device = asCel(d);
    if (device instanceof Error) return false;
    return selectors.every((s) => {
      const selector = s.cel ? compiler.compile(s.cel.expression) : undefined;
      return typeof selector === 'function' && selector(device) === true;
    });
  };
}
