/** MKS nodes' providerID: `openstack:///<instanceId>` (what the OpenStack cloud controller sets on MKS). */
const Prefix = 'openstack:///';

export function formatProviderID(instanceId: string): string {
  return `${Prefix}${instanceId}`;
}

/** The instance id of an MKS providerID, or undefined when it is not one. */
export function instanceIdOf(providerID: string): string | undefined {
  if (!providerID.startsWith(Prefix)) return undefined;
  const id = providerID.slice(Prefix.length);
  return id.length > 0 && !id.includes('/') ? id : undefined;
}
