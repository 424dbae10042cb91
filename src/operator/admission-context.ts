/** The admission webhooks' view of the cluster (AdmissionContextProvider) backed by ClusterState. */
import type { CloudName } from '../apis/v1/labels.js';
import type { CatalogFile } from '../catalog/types.js';
import type { AdmissionContext, AdmissionDefaults, AdmissionOperation, KubeObject } from '../domain/admission/index.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { AdmissionContextProvider } from '../../webhooks/admission/context-provider.js';

export interface StateAdmissionContextOptions {
  state: ClusterState;
  catalogs: Readonly<Partial<Record<CloudName, CatalogFile>>>;
  defaults: AdmissionDefaults;
}

/** Informer lists may omit apiVersion/kind on items; admission rules filter by kind. */
function withKind(object: object, apiVersion: string, kind: string): KubeObject {
  return { apiVersion, kind, ...(object as KubeObject) };
}

export function stateAdmissionContext(options: StateAdmissionContextOptions): AdmissionContextProvider {
  return {
    contextFor(operation: AdmissionOperation, oldObject: KubeObject | undefined): AdmissionContext {
      const snapshot = options.state.snapshot();
      return {
        operation,
        ...(oldObject ? { oldObject } : {}),
        nodePools: snapshot.nodePools.map((p) => withKind(p, 'karpenter.sh/v1', 'NodePool')),
        nodeClasses: snapshot.nodeClasses.map((c) => withKind(c.object, (c.object as { apiVersion?: string }).apiVersion ?? '', c.kind)),
        nodeClaims: snapshot.nodes.flatMap((n) => (n.nodeClaim ? [withKind(n.nodeClaim, 'karpenter.sh/v1', 'NodeClaim')] : [])),
        catalogs: options.catalogs,
        defaults: options.defaults,
      };
    },
    ready: () => options.state.synced(),
  };
}
