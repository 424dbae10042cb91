/**
 * The Kube port: the narrow set of API calls the controllers make. Every method throws the classes of
 * ./errors.ts (KubeNotFound, KubeConflict, KubeAlreadyExists, KubeTooManyRequests, KubeInvalid…) and
 * KubeUnreachable when no answer came; nothing else.
 */
import type { KubernetesObject, CoreV1Event } from '@kubernetes/client-node';
import type { JsonPatchOperation } from '../util/json-patch.js';
import type { ResourceKind } from './resources.js';

export interface ObjectKey {
  name: string;
  /** Required for namespaced kinds, ignored for cluster-scoped ones. */
  namespace?: string;
}

export interface ListOptions {
  /** All namespaces when unset (namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
}

export interface ObjectList<T> {
  items: T[];
  resourceVersion: string;
}

/** A merge patch (RFC 7386) or a JSON patch (RFC 6902); JSON patch is how preconditions (`test`) are sent. */
export type Patch = { type: 'merge'; body: object } | { type: 'json'; body: JsonPatchOperation[] };

export interface DeleteOptions {
  /** Delete only if the object still has this UID / resourceVersion (409 otherwise). */
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

export interface EvictOptions {
  /** Passed as the Eviction's deleteOptions.gracePeriodSeconds. */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string };
}

export interface Kube {
  /** Throws KubeNotFound when absent. */
  get<T extends KubernetesObject>(resource: ResourceKind, key: ObjectKey): Promise<T>;
  list<T extends KubernetesObject>(resource: ResourceKind, options?: ListOptions): Promise<ObjectList<T>>;
  /** Throws KubeAlreadyExists on a name clash; a `metadata.generateName` gets a fresh name from the server. */
  create<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T>;
  /** Patches the object, or its status subresource with `{ status: true }`. */
  patch<T extends KubernetesObject>(resource: ResourceKind, key: ObjectKey, patch: Patch, options?: { status?: boolean }): Promise<T>;
  /** Full update; throws KubeConflict when `metadata.resourceVersion` is stale. */
  replace<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T>;
  /** Full update of the status subresource; throws KubeConflict when stale. */
  replaceStatus<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T>;
  /** Throws KubeNotFound when already gone (use ignoreKubeNotFound when that is fine). */
  delete(resource: ResourceKind, key: ObjectKey, options?: DeleteOptions): Promise<void>;
  /** The Eviction API; throws KubeTooManyRequests while a PodDisruptionBudget refuses it. */
  evict(key: Required<ObjectKey>, options?: EvictOptions): Promise<void>;
  createEvent(event: CoreV1Event): Promise<CoreV1Event>;
  patchEvent(key: Required<ObjectKey>, patch: object): Promise<CoreV1Event>;
}
