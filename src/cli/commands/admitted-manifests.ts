/**
 * The objects of the files as the API server would store them: every object admission reviews is run through
 * the webhooks' mutate + validate (admitOffline), so `plan` plans with exactly the defaults `validate` shows
 * and leaves out what the webhooks would refuse. Other objects (workloads, Nodes) pass unchanged.
 */
import { CloudNames, type CloudName } from '../../apis/v1/labels.js';
import { loadCatalog } from '../../catalog/index.js';
import type { CatalogFile } from '../../catalog/types.js';
import { admitOffline, type AdmissionDefaults, type KubeObject } from '../../domain/admission/index.js';
import type { ManifestObject } from '../../util/manifest-files.js';
import type { CommandIO } from '../errors.js';

/** The service defaults offline: global credentials count as configured when their variable is set. */
export function offlineDefaults(
  env: CommandIO['env'],
  options: { gpuTaint?: boolean; limits?: Record<string, string> } = {},
): AdmissionDefaults {
  return {
    gpuTaint: options.gpuTaint ?? true,
    globalCredentials: {
      ovhcloud: Boolean(env.OVH_APPLICATION_KEY),
      scaleway: Boolean(env.SCW_SECRET_KEY),
      outscale: Boolean(env.OSC_ACCESS_KEY),
    },
    ...(options.limits ? { limits: options.limits } : {}),
  };
}

export function bundledCatalogs(): Record<CloudName, CatalogFile> {
  return Object.fromEntries(CloudNames.map((c) => [c, loadCatalog(c)])) as Record<CloudName, CatalogFile>;
}

export interface AdmittedManifests {
  objects: ManifestObject[];
  /** Objects the webhooks would refuse, left out. */
  denied: { source: string; message: string }[];
  /** Warnings about Pods (selectors read another way); the defaults on NodePools are `validate`'s to show. */
  warnings: { source: string; message: string }[];
}

export function admittedManifests(entries: readonly ManifestObject[], defaults: AdmissionDefaults): AdmittedManifests {
  const reviewed = new Map<KubeObject, ReturnType<typeof admitOffline>[number]>();
  for (const review of admitOffline(
    entries.map((e) => e.object),
    bundledCatalogs(),
    defaults,
  ))
    reviewed.set(review.original, review);
  const result: AdmittedManifests = { objects: [], denied: [], warnings: [] };
  for (const entry of entries) {
    const review = reviewed.get(entry.object);
    if (!review) {
      result.objects.push(entry);
      continue;
    }
    if (entry.object.kind === 'Pod') for (const message of review.outcome.warnings) result.warnings.push({ source: entry.source, message });
    if (review.outcome.allowed) result.objects.push({ source: entry.source, object: review.outcome.object as ManifestObject['object'] });
    else
      result.denied.push({
        source: entry.source,
        message: `${String(entry.object.kind)} refused by admission, left out: ${review.outcome.message}`,
      });
  }
  return result;
}
