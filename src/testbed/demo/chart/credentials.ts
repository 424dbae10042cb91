/**
 * The service's own cloud credentials, as docs/install.md has an administrator create them before `helm install`:
 * one Secret per cloud in the release namespace, under the names and keys of the chart's defaults
 * (cloud.<cloud>.credentialsSecret), holding the emulators' accounts.
 */
import type { V1Secret } from '@kubernetes/client-node';
import type { Emulators } from '../environment.js';

function secret(name: string, namespace: string, stringData: Record<string, string>): V1Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData };
}

export function operatorCredentialSecrets(emulators: Emulators, namespace: string): V1Secret[] {
  const secrets: V1Secret[] = [];
  if (emulators.ovhcloud) {
    const c = emulators.ovhcloud.credentials;
    secrets.push(
      secret('ovh-credentials', namespace, {
        applicationKey: c.applicationKey,
        applicationSecret: c.applicationSecret,
        consumerKey: c.consumerKey,
      }),
    );
  }
  if (emulators.scaleway) {
    const c = emulators.scaleway.credentials;
    secrets.push(
      secret('scaleway-credentials', namespace, {
        SCW_ACCESS_KEY: c.accessKey,
        SCW_SECRET_KEY: c.secretKey,
        SCW_DEFAULT_PROJECT_ID: c.projectId,
      }),
    );
  }
  if (emulators.outscale) {
    const c = emulators.outscale.credentials;
    secrets.push(secret('outscale-credentials', namespace, { OSC_ACCESS_KEY: c.accessKey, OSC_SECRET_KEY: c.secretKey }));
  }
  return secrets;
}
