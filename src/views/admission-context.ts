/** The admission webhooks' view of the cluster (AdmissionContextProvider) backed by ClusterState. */
import type { CloudName } from '../apis/v1/labels.js';
import type { CatalogFile } from '../catalog/types.js';
import type { AdmissionContext, AdmissionDefaults, AdmissionOperation, KubeObject } from '../domain/admission/index.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { LiveCatalogs } from '../cloudprovider/live-catalogs.js';
import type { AdmissionContextProvider } from '../domain/admission/context-provider.js';

export interface StateAdmissionContextOptions {
  state: ClusterState;
  catalogs: Readonly<Partial<Record<CloudName, CatalogFile>>>;
  /** The catalogs as the providers read them from the clouds; `catalogs` alone (bundled) when absent. */
  live?: LiveCatalogs;
  defaults: AdmissionDefaults;
}

type ClusterObjects = Pick<AdmissionContext, 'nodePools' | 'nodeClasses' | 'nodeClaims' | 'nodeOverlays'>;

/** Informer lists may omit apiVersion/kind on items; admission rules filter by kind. */
export function withKind(object: object, apiVersion: string, kind: string): KubeObject {
  const typed = object as KubeObject;
  return typed.apiVersion === apiVersion && typed.kind === kind ? typed : { apiVersion, kind, ...typed };
}

/**
 * Every review reads the NodePools, NodeClasses and NodeClaims (thousands of NodeClaims on a large cluster), at
 * up to thousands of reviews a second: the lists are rebuilt only when one of those objects changed.
 */
export function stateAdmissionContext(options: StateAdmissionContextOptions): AdmissionContextProvider {
  const { state } = options;
  let cached: { version: number; objects: ClusterObjects } | undefined;
  const objects = (): ClusterObjects => {
    const version = state.definitionsVersion();
    if (cached?.version !== version) {
      cached = {
        version,
        objects: {
          nodePools: state.nodePoolList().map((p) => withKind(p, 'karpenter.sh/v1', 'NodePool')),
          nodeClasses: state.nodeClassList().map((c) => withKind(c.object, (c.object as { apiVersion?: string }).apiVersion ?? '', c.kind)),
          nodeClaims: state.nodeClaimList().map((c) => withKind(c, 'karpenter.sh/v1', 'NodeClaim')),
          nodeOverlays: state.nodeOverlayList().map((o) => withKind(o, 'karpenter.sh/v1alpha1', 'NodeOverlay')),
        },
      };
    }
    return cached.objects;
  };
  return {
    contextFor(operation: AdmissionOperation, oldObject: KubeObject | undefined): AdmissionContext {
      const catalogs = options.live?.current() ?? { catalogs: options.catalogs, liveCatalogs: {} };
      return { operation, ...(oldObject ? { oldObject } : {}), ...objects(), ...catalogs, defaults: options.defaults };
    },
    ready: () => state.synced(),
  };
}
