/**
 * Shared set-up for the Scaleway emulator wire tests: a small catalog with figures from the reference
 * (clouds.md §B3, fr-par-1 captures) and SDK clients built exactly as a user would build them.
 */
import { createAdvancedClient, withProfile } from '@scaleway/sdk-client';
import { Instancev1 } from '@scaleway/sdk-instance';
import { Blockv1alpha1 } from '@scaleway/sdk-block';
import type { CatalogFile } from '../../../src/catalog/types.js';
import type { ScalewayCredential, ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';

export const testCatalog: CatalogFile = {
  cloud: 'scaleway',
  retrieved: '2025-11-04',
  sources: [
    {
      title: 'products/servers answer for fr-par-1 recorded in scaleway/scaleway-cli (test-attach-filesystem cassette)',
      url: 'https://github.com/scaleway/scaleway-cli',
      date: '2025-11-04',
    },
  ],
  regions: [
    { name: 'fr-par', zones: ['fr-par-1', 'fr-par-2'] },
    { name: 'pl-waw', zones: ['pl-waw-1'] },
  ],
  flavors: [
    {
      name: 'DEV1-S',
      family: 'DEV1',
      generation: 1,
      vcpus: 2,
      memoryMiB: 2048,
      arch: 'amd64',
      localDiskGiB: 20,
      regions: ['fr-par', 'pl-waw'],
      prices: [
        { region: 'fr-par', hourly: 0.01368 },
        { region: 'pl-waw', hourly: 0.008976 },
      ],
    },
    {
      name: 'PRO2-S',
      family: 'PRO2',
      generation: 2,
      vcpus: 8,
      memoryMiB: 32768,
      arch: 'amd64',
      regions: ['fr-par', 'pl-waw'],
      prices: [
        { region: 'fr-par', hourly: 0.219 },
        { region: 'pl-waw', hourly: 0.22338 },
      ],
    },
    {
      name: 'POP2-2C-8G',
      family: 'POP2',
      generation: 2,
      vcpus: 2,
      memoryMiB: 8192,
      arch: 'amd64',
      regions: ['fr-par'],
      prices: [{ region: '*', hourly: 0.0735 }],
    },
    {
      name: 'L4-1-24G',
      family: 'L4',
      generation: 1,
      vcpus: 8,
      memoryMiB: 49152,
      arch: 'amd64',
      gpu: { count: 1, name: 'l4', memoryMiB: 24576, manufacturer: 'nvidia' },
      regions: ['fr-par'],
      prices: [{ region: 'fr-par', hourly: 0.75 }],
    },
    {
      name: 'GPU-3070-S',
      family: 'GPU-3070',
      generation: 1,
      vcpus: 8,
      memoryMiB: 16384,
      arch: 'amd64',
      gpu: { count: 1, name: 'rtx3070', memoryMiB: 8192, manufacturer: 'nvidia' },
      regions: ['fr-par'],
      prices: [{ region: 'fr-par', hourly: null }],
    },
  ],
};

export function clientsFor(emulator: ScalewayEmulator, credential: ScalewayCredential = emulator.credentials) {
  const client = createAdvancedClient(
    withProfile({
      apiURL: emulator.url,
      accessKey: credential.accessKey,
      secretKey: credential.secretKey,
      defaultProjectId: credential.projectId,
      defaultOrganizationId: credential.organizationId,
      defaultZone: 'fr-par-1',
      defaultRegion: 'fr-par',
    }),
  );
  return { instance: new Instancev1.API(client), block: new Blockv1alpha1.API(client) };
}

/** Raw HTTP for what the SDK hides (headers, exact status codes, malformed bodies). */
export async function raw(
  emulator: ScalewayEmulator,
  method: string,
  path: string,
  init: { body?: string; token?: string | null; contentType?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (init.token !== null) headers['x-auth-token'] = init.token ?? emulator.credentials.secretKey;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  return fetch(`${emulator.url}${path}`, { method, headers, body: init.body });
}

/** Waits until the emulator parks a request on the fake clock (slow or timeout faults). */
export async function untilWaiting(clock: { waiting: number }, count = 1): Promise<void> {
  for (let i = 0; i < 1000 && clock.waiting < count; i++) await new Promise((r) => setImmediate(r));
  if (clock.waiting < count) throw new Error('no request parked on the fake clock');
}
