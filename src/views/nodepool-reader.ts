/**
 * The service's NodePoolReader: each stored NodePool read with its read-time defaults (effectiveNodePool), against
 * the NodeClasses of the state and the catalogs admission uses (bundled, then as the providers read them), so
 * provisioning, disruption, the extender and admission all see one defaulted view.
 */
import type { NodePool } from '../apis/index.js';
import type { LiveCatalogs } from '../cloudprovider/live-catalogs.js';
import { type AdmissionDefaults, effectiveNodePool } from '../domain/admission/index.js';
import type { NodePoolReader } from '../state/cluster-state.js';
import type { NodeClassEntry } from '../state/snapshot.js';
import { withKind } from './admission-context.js';

export function defaultingNodePoolReader(live: LiveCatalogs, defaults: AdmissionDefaults): NodePoolReader {
  return {
    read(pool: NodePool, nodeClasses: readonly NodeClassEntry[]): NodePool {
      const { catalogs, liveCatalogs } = live.current();
      const classes = nodeClasses.map((c) => withKind(c.object, (c.object as { apiVersion?: string }).apiVersion ?? '', c.kind));
      return effectiveNodePool(pool, {
        operation: 'UPDATE',
        nodePools: [],
        nodeClasses: classes,
        nodeClaims: [],
        catalogs,
        liveCatalogs,
        defaults,
      });
    },
    version: () => live.current(),
  };
}
