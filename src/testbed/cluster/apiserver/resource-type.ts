/** What the server knows about one served resource (one group/version/plural), built-in or from a CRD. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Subresources served beside the main resource (`status`, `binding`, `eviction`…). */
  subresources: string[];
  /** Built-ins accept strategic merge patch; custom resources do not. */
  strategicMerge: boolean;
  /** Set for types served because a CustomResourceDefinition exists. */
  crdName?: string;
  /** The CRD version's additionalPrinterColumns: what `kubectl get` shows for it. */
  printerColumns?: PrinterColumnSpec[];
  /** The CRD version's openAPIV3Schema: defaults on write, `kubectl explain` through /openapi/v3. */
  schema?: Record<string, unknown>;
  /** Where the `scale` subresource reads and writes replicas (set when `scale` is in subresources). */
  scale?: ScaleSpec;
}

/** As a CRD's `subresources.scale` declares it: simple dot paths under .spec and .status. */
export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  /** A string field (custom resources) or, for the apps kinds, `.spec.selector`, a LabelSelector object. */
  labelSelectorPath?: string;
}

export interface PrinterColumnSpec {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** `pods`, `nodepools.karpenter.sh`: the name kube-apiserver uses in its messages. */
export function qualifiedResource(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

/** Storage identity: one store per group + plural, shared by all versions of a resource. */
export function storageKey(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${type.group}/${type.plural}`;
}

export function hasStatusSubresource(type: ResourceType): boolean {
  return type.subresources.includes('status');
}
