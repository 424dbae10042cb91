/**
 * The port through which admission sees the rest of the cluster. The service backs it with its ClusterState
 * view (src/views/admission-context.ts); tests and benchmarks use InMemoryContextProvider over plain objects.
 */
import type { CloudName } from '../../apis/v1/labels.js';
import type { CatalogFile } from '../../catalog/types.js';
import type { AdmissionContext, AdmissionDefaults, AdmissionOperation, KubeObject } from './index.js';

export interface AdmissionContextProvider {
  /** The context for one review; must be cheap (read from caches, no I/O). */
  contextFor(operation: AdmissionOperation, oldObject: KubeObject | undefined): AdmissionContext;
  /** False until the caches behind the context are synced (then /readyz answers 503). */
  ready(): boolean;
}

const nodeClassKinds = new Set(['OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass']);

export interface InMemoryContextOptions {
  objects?: readonly KubeObject[];
  catalogs: Readonly<Partial<Record<CloudName, CatalogFile>>>;
  defaults: AdmissionDefaults;
}

type ClusterObjects = Pick<AdmissionContext, 'nodePools' | 'nodeClasses' | 'nodeClaims'>;

export class InMemoryContextProvider implements AdmissionContextProvider {
  private objects: KubeObject[];
  private byKind: ClusterObjects;

  constructor(private readonly options: InMemoryContextOptions) {
    this.objects = [...(options.objects ?? [])];
    this.byKind = splitByKind(this.objects);
  }

  /** Replaces the stored object of the same kind and name, or adds it. */
  upsert(object: KubeObject): void {
    const same = (o: KubeObject): boolean => o.kind === object.kind && nameOf(o) === nameOf(object);
    this.objects = [...this.objects.filter((o) => !same(o)), object];
    this.byKind = splitByKind(this.objects);
  }

  contextFor(operation: AdmissionOperation, oldObject: KubeObject | undefined): AdmissionContext {
    return {
      operation,
      ...(oldObject ? { oldObject } : {}),
      ...this.byKind,
      catalogs: this.options.catalogs,
      defaults: this.options.defaults,
    };
  }

  ready(): boolean {
    return true;
  }
}

function splitByKind(objects: readonly KubeObject[]): ClusterObjects {
  return {
    nodePools: objects.filter((o) => o.kind === 'NodePool'),
    nodeClasses: objects.filter((o) => typeof o.kind === 'string' && nodeClassKinds.has(o.kind)),
    nodeClaims: objects.filter((o) => o.kind === 'NodeClaim'),
  };
}

function nameOf(object: KubeObject): unknown {
  const metadata = object.metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).name : undefined;
}
