/**
 * The objects of the files as the service reads them: every object admission reviews is run through the
 * webhooks' mutate + validate (admitOffline), so `plan` plans with exactly the read-time defaults `validate`
 * shows and leaves out what the webhooks would refuse. Other objects (workloads, Nodes) pass unchanged.
 */
import { CloudNames, type CloudName } from '../../apis/v1/labels.js';
import { loadCatalog } from '../../catalog/index.js';
import type { CatalogFile } from '../../catalog/types.js';
import { admitOffline, type AdmissionDefaults, type KubeObject } from '../../domain/admission/index.js';
import type { ManifestObject } from '../../util/manifest-files.js';
import { DefaultNodeClassSecretNamespace, type SecretAccessPolicy } from '../../domain/secrets/secret-access.js';
import { InvalidOptionError } from '../../operator/option-values.js';
import { DefaultNodeClassSecretLabel, parseSecretAccess } from '../../operator/secret-access-options.js';
import { type CommandIO, UsageError } from '../errors.js';

/**
 * The Secret rule the service applies (src/domain/secrets/secret-access.ts), from the variables the chart
 * gives the service; its namespace defaults to POD_NAMESPACE, else the guides' `karpenter`.
 */
function offlineSecretAccess(env: CommandIO['env']): SecretAccessPolicy {
  const raw = (name: string): { value: string; source: string } | undefined => {
    const value = env[name];
    return value === undefined ? undefined : { value, source: name };
  };
  const namespaces = raw('NODECLASS_SECRET_NAMESPACES');
  const credentials = raw('OPERATOR_CREDENTIALS_SECRETS');
  try {
    return parseSecretAccess(
      {
        ...(namespaces ? { namespaces } : {}),
        label: raw('NODECLASS_SECRET_LABEL') ?? { value: DefaultNodeClassSecretLabel, source: 'NODECLASS_SECRET_LABEL' },
        ...(credentials ? { credentials } : {}),
      },
      env.POD_NAMESPACE ?? DefaultNodeClassSecretNamespace,
    );
  } catch (error) {
    if (error instanceof InvalidOptionError) throw new UsageError(error.message);
    throw error;
  }
}

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
    secretAccess: offlineSecretAccess(env),
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
    if (review.outcome.allowed) result.objects.push({ source: entry.source, object: review.outcome.effective as ManifestObject['object'] });
    else
      result.denied.push({
        source: entry.source,
        message: `${String(entry.object.kind)} refused by admission, left out: ${review.outcome.message}`,
      });
  }
  return result;
}
