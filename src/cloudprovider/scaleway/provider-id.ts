/** Scaleway providerIDs, as the Scaleway cloud controller manager writes them: `scaleway://instance/<zone>/<id>`. */

const ProviderIDPattern = /^scaleway:\/\/instance\/([a-z]{2}-[a-z]{3}-[1-9])\/([0-9a-f-]{36})$/;

export class InvalidProviderIDError extends Error {
  constructor(providerID: string) {
    super(`parsing providerID: "${providerID}" is not a Scaleway instance providerID; accepted: scaleway://instance/<zone>/<server uuid>`);
    this.name = 'InvalidProviderIDError';
  }
}

export interface ServerLocation {
  zone: string;
  id: string;
}

export function formatProviderID(server: ServerLocation): string {
  return `scaleway://instance/${server.zone}/${server.id}`;
}

/** The zone and server id of a providerID, or undefined when it is not a Scaleway instance's. */
export function tryParseProviderID(providerID: string): ServerLocation | undefined {
  const match = ProviderIDPattern.exec(providerID);
  return match ? { zone: match[1] as string, id: match[2] as string } : undefined;
}

export function parseProviderID(providerID: string): ServerLocation {
  const parsed = tryParseProviderID(providerID);
  if (!parsed) throw new InvalidProviderIDError(providerID);
  return parsed;
}
