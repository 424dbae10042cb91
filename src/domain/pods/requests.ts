/**
 * A pod's resource requests as kube-scheduler computes them (component-helpers resource.PodRequests):
 * the larger of (app containers + sidecars) and each init container's peak (a classic init container runs
 * alongside the sidecars started before it), plus the pod overhead. Requests the API server would have
 * defaulted from limits are filled in first. ResourceList units: cpu in millicores, the rest base units.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ResourceList } from '../instancetypes/types.js';
import { addResources, maxResources, parseResourceList, ResourcePods } from '../quantity/index.js';

type ContainerLike = Pick<V1Container, 'resources' | 'restartPolicy'>;
type PodLike = { spec?: Pick<NonNullable<V1Pod['spec']>, 'containers' | 'initContainers' | 'overhead'> };

/** A container's effective requests: its requests, with each resource that only has a limit requesting the limit. */
export function containerRequests(container: ContainerLike): ResourceList {
  const requests = parseResourceList(container.resources?.requests);
  const limits = parseResourceList(container.resources?.limits);
  let defaulted: Record<string, number> | undefined;
  for (const name in limits) {
    if (requests[name] === undefined) {
      defaulted ??= { ...requests };
      defaulted[name] = limits[name] as number;
    }
  }
  return defaulted ?? requests;
}

/** A sidecar: an init container that keeps running (restartPolicy Always). */
export function isRestartableInitContainer(container: ContainerLike): boolean {
  return container.restartPolicy === 'Always';
}

/** resource.PodRequests without the pod count. */
export function podRequests(pod: PodLike): ResourceList {
  const spec = pod.spec;
  let requests: ResourceList = addResources(...(spec?.containers ?? []).map(containerRequests));
  let sidecars: ResourceList = {};
  let initPeak: ResourceList = {};
  for (const init of spec?.initContainers ?? []) {
    const own = containerRequests(init);
    if (isRestartableInitContainer(init)) {
      requests = addResources(requests, own);
      sidecars = addResources(sidecars, own);
      initPeak = maxResources(initPeak, sidecars);
    } else {
      initPeak = maxResources(initPeak, addResources(own, sidecars));
    }
  }
  requests = maxResources(requests, initPeak);
  if (spec?.overhead) requests = addResources(requests, parseResourceList(spec.overhead));
  return requests;
}

/** What the pod takes from a node when scheduled: its requests plus one `pods` slot (Karpenter RequestsForPods). */
export function podSchedulingRequests(pod: PodLike): ResourceList {
  return addResources(podRequests(pod), { [ResourcePods]: 1 });
}

/** The summed scheduling requests of several pods. */
export function podsSchedulingRequests(pods: readonly PodLike[]): ResourceList {
  return addResources(...pods.map(podSchedulingRequests));
}
