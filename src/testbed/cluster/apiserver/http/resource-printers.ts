/**
 * kube-apiserver's Table columns for the resource.k8s.io kinds (pkg/printers/internalversion/printers.go):
 * DeviceClass and ResourceClaimTemplate print Name and Age, a ResourceClaim its State, a ResourceSlice its
 * Node, Driver and Pool.
 */
import { type KubeObject } from '../kube-object.js';
import { age, ageColumn, type Column, count, field, nameColumn, type Printer, text } from './printer-format.js';

function withNameAndAge(columns: Column[], cells: (o: KubeObject) => unknown[]): Printer {
  return { columns: [nameColumn, ...columns, ageColumn], cells: (o, nowMs) => [o.metadata.name, ...cells(o), age(o, nowMs)] };
}

/** resourceClaimState: deleted, pending, allocated, reserved or deallocating, comma-separated. */
export function resourceClaimState(claim: KubeObject): string {
  const states: string[] = [];
  const deleted = Boolean(claim.metadata.deletionTimestamp);
  if (deleted) states.push('deleted');
  if (field(claim.status, 'allocation') === undefined) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (count(field(claim.status, 'reservedFor')) > 0) states.push('reserved');
    else if (deleted) states.push('deallocating');
  }
  return states.join(',');
}

export const resourcePrinters: Record<string, Printer> = {
  'resource.k8s.io/deviceclasses': withNameAndAge([], () => []),
  'resource.k8s.io/resourceclaimtemplates': withNameAndAge([], () => []),
  'resource.k8s.io/resourceclaims': withNameAndAge(
    [{ name: 'State', type: 'string', description: 'A summary of the current state (allocated, pending, reserved, etc.).' }],
    (o) => [resourceClaimState(o)],
  ),
  'resource.k8s.io/resourceslices': withNameAndAge(
    [
      { name: 'Node', type: 'string', description: 'NodeName identifies the node which provides the resources in this pool.' },
      { name: 'Driver', type: 'string', description: 'Driver identifies the DRA driver providing the capacity information.' },
      { name: 'Pool', type: 'string', description: 'Pool describes the pool that this ResourceSlice belongs to.' },
    ],
    (o) => [text(field(o.spec, 'nodeName')), text(field(o.spec, 'driver'), ''), text(field(o.spec, 'pool', 'name'), '')],
  ),
};
