/**
 * Admission over a set of files, as the API server would run it on each object with the others stored: the
 * one path `validate` reports and `plan` plans from, so a plan uses exactly the objects the webhooks would
 * store (defaults applied) and leaves out what they would refuse.
 */
import type { CloudName } from '../../apis/v1/labels.js';
import type { CatalogFile } from '../../catalog/types.js';
import { admit, type AdmissionOutcome } from './admit.js';
import { foreignKarpenterKind } from './foreign-kinds.js';
import { kindOf, nameOf } from './object-access.js';
import type { AdmissionContext, AdmissionDefaults, KubeObject } from './types.js';
import { isOwnedKind, verdict } from './validate.js';

const nodeClassKinds = new Set(['OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass']);

export interface OfflineAdmission {
  /** The object as written. */
  original: KubeObject;
  outcome: AdmissionOutcome;
}

/** Whether admission has something to say about the object (owned kinds, Pods, kinds users migrate from). */
export function isReviewedOffline(object: KubeObject): boolean {
  return isOwnedKind(kindOf(object)) || kindOf(object) === 'Pod' || foreignKarpenterKind(object) !== undefined;
}

/** The objects of the set a context lists, grouped once: scanning the whole set per object is quadratic. */
interface ContextObjects {
  nodePools: readonly KubeObject[];
  nodeClasses: readonly KubeObject[];
  nodeClaims: readonly KubeObject[];
  nodeOverlays: readonly KubeObject[];
}

function contextGroup(kind: string): keyof ContextObjects | undefined {
  if (kind === 'NodePool') return 'nodePools';
  if (nodeClassKinds.has(kind)) return 'nodeClasses';
  if (kind === 'NodeOverlay') return 'nodeOverlays';
  return kind === 'NodeClaim' ? 'nodeClaims' : undefined;
}

function contextObjects(objects: readonly KubeObject[]): ContextObjects {
  const grouped = {
    nodePools: [] as KubeObject[],
    nodeClasses: [] as KubeObject[],
    nodeClaims: [] as KubeObject[],
    nodeOverlays: [] as KubeObject[],
  };
  for (const o of objects) {
    const group = contextGroup(kindOf(o));
    if (group) grouped[group].push(o);
  }
  return grouped;
}

/**
 * The others of the set as the API server would have them stored: the object and its namesakes left out.
 * Objects of other kinds (the pods) all share `common`, so what is derived from a context is derived once.
 */
function contextFor(object: KubeObject, common: AdmissionContext, set: ContextObjects): AdmissionContext {
  const kind = kindOf(object);
  const group = contextGroup(kind);
  if (!group) return common;
  return { ...common, [group]: set[group].filter((o) => !(kindOf(o) === kind && nameOf(o) === nameOf(object))) };
}

export type OfflineCatalogs = Readonly<Partial<Record<CloudName, CatalogFile>>>;

/** mutate + validate every reviewed object against the others of the set; other objects are left out. */
export function admitOffline(objects: readonly KubeObject[], catalogs: OfflineCatalogs, defaults: AdmissionDefaults): OfflineAdmission[] {
  const set = contextObjects(objects);
  const secrets = objects.filter((o) => kindOf(o) === 'Secret');
  const common: AdmissionContext = { operation: 'CREATE', ...set, catalogs, defaults, secrets };
  return objects.filter(isReviewedOffline).map((original) => {
    const foreign = foreignKarpenterKind(original);
    if (foreign) {
      const denied = verdict([foreign], []);
      return { original, outcome: { allowed: false, message: denied.message, warnings: [], object: original, effective: original } };
    }
    return { original, outcome: admit(original, contextFor(original, common, set)) };
  });
}
