/**
 * The admission model: plain data in (the object, the other objects of the cluster, the catalogs, the
 * configured defaults), verdicts and warnings out. Shared by the webhook server and `validate`.
 */
import type { CloudName } from '../../apis/v1/labels.js';
import type { CatalogFile } from '../../catalog/types.js';
import type { SecretAccessPolicy } from '../secrets/secret-access.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** A Kubernetes object as JSON: admission never trusts its shape. */
export type KubeObject = Record<string, unknown>;

/** Service configuration that admission reads (parsed once by the shell, passed in). */
export interface AdmissionDefaults {
  /** Filled into `spec.limits` of NodePools that set none (e.g. `{cpu: "1000", memory: "1000Gi"}`). */
  limits?: Readonly<Record<string, string>>;
  /** Add a `nvidia.com/gpu:NoSchedule` taint to NodePools that can only launch GPU flavors. */
  gpuTaint: boolean;
  /** Clouds whose credentials the service has globally (then NodeClasses may omit credentialsSecretRef). */
  globalCredentials: Readonly<Partial<Record<CloudName, boolean>>>;
  /** OVH region / kubeId of the service's configuration or auto-detection. */
  ovh?: { region?: string; kubeId?: string };
  /** Which Secrets NodeClasses may reference; unset (offline `validate`): not checked. */
  secretAccess?: SecretAccessPolicy;
}

/** What of a cloud's catalog was read from the cloud itself. */
export interface LiveCatalogScope {
  /** The region (and zone) list came from the cloud: an unknown region or zone does not exist. */
  regionsListed: boolean;
  /** Regions whose flavors came from the cloud: a flavor unknown there is not sold there. */
  flavorsOf: readonly string[];
}

export interface AdmissionContext {
  operation: AdmissionOperation;
  /** The stored object on UPDATE. */
  oldObject?: KubeObject;
  /** The other objects of the cluster (or of the files given to `validate`). */
  nodePools: readonly KubeObject[];
  nodeClasses: readonly KubeObject[];
  nodeClaims: readonly KubeObject[];
  /** The NodeOverlays stored (or in the files given to `validate`); an overlay is checked against them. */
  nodeOverlays?: readonly KubeObject[];
  catalogs: Readonly<Partial<Record<CloudName, CatalogFile>>>;
  /**
   * Clouds whose catalog above was read from the cloud itself (the running service, once its providers have
   * listed the instance types). Only those are proof that a region or flavor does not exist: against a
   * bundled catalog an unknown value may just be newer than the file, so it is a warning, not a denial.
   */
  liveCatalogs?: Readonly<Partial<Record<CloudName, LiveCatalogScope>>>;
  defaults: AdmissionDefaults;
  /**
   * Secrets NodeClasses may name, where the caller has them (`validate`: the files' Secrets): a named one
   * without the label is warned about. The live webhook reads no Secret (one may be created after its class);
   * the class's Ready condition reports a missing label there.
   */
  secrets?: readonly KubeObject[];
}

/** One reason to deny: the field path, and a message naming the value and the fix. */
export interface Violation {
  path: string;
  message: string;
}

/** What one rule family finds. */
export interface RuleFindings {
  violations: Violation[];
  warnings: string[];
}

export interface ValidationResult {
  allowed: boolean;
  /** Every violation, `path: message`, joined with `; ` (what kubectl prints after the webhook name). */
  message: string;
  warnings: string[];
  violations: Violation[];
}

/** The defaulting webhook's answer: warnings only, the stored object is never patched. */
export interface MutationResult {
  warnings: string[];
}

export const emptyFindings = (): RuleFindings => ({ violations: [], warnings: [] });
