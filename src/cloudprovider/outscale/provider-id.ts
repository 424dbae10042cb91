/**
 * Outscale providerIDs as cloud-provider-osc writes them on Nodes: `aws:///<subregion>/<vmId>`
 * (`ccm/cloud/vm.go` ProviderID()). The CCM's parser also accepts `osc://` and a bare VM id; so does this one.
 */

export class InvalidProviderIdError extends Error {
  constructor(providerID: string) {
    super(
      `parsing providerID ${JSON.stringify(providerID)}: accepted: aws:///<subregion>/<vm id>, osc:///<subregion>/<vm id> or a vm id (i-…)`,
    );
    this.name = 'InvalidProviderIdError';
  }
}

export function formatProviderId(subregion: string, vmId: string): string {
  return `aws:///${subregion}/${vmId}`;
}

const PROVIDER_ID = /^(?:aws|osc):\/\/\/(?:([a-z0-9-]+)\/)?(i-[0-9a-zA-Z]+)$/;
const BARE_VM_ID = /^i-[0-9a-zA-Z]+$/;

/** The VM id (and subregion when present) of a providerID. */
export function parseProviderId(providerID: string): { vmId: string; subregion?: string } {
  if (BARE_VM_ID.test(providerID)) return { vmId: providerID };
  const match = PROVIDER_ID.exec(providerID);
  if (!match?.[2]) throw new InvalidProviderIdError(providerID);
  return match[1] ? { vmId: match[2], subregion: match[1] } : { vmId: match[2] };
}
