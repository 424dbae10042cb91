/**
 * What OVH says about the project and MKS cluster an OVHNodeClass names, for its status: one read of the
 * cluster with the class's credentials. Refused credentials and a project or cluster that does not exist are
 * facts; any other failure is thrown (the status is left as it was and asked again later).
 */
import type { OVHNodeClass } from '../../apis/v1alpha1/ovh-nodeclass.js';
import type { NodeClassCloudFacts } from '../../domain/nodeclass/cloud-facts.js';
import { findInChain } from '../errors.js';
import type { OvhAccounts } from './accounts.js';
import type { OvhCaller } from './calls.js';
import { OvhApiError } from './errors.js';
import { KubeIdNotDetectedError } from './kube-detection.js';

/** OVH's 404 for a project the credentials do not reach, whatever the path below it. */
const NoSuchService = /service does not exist/i;

function factsOf(error: unknown, nodeClass: OVHNodeClass, kubeId: string | undefined): NodeClassCloudFacts | undefined {
  const failure = findInChain(error, OvhApiError)?.failure;
  if (failure?.status === 401 || failure?.status === 403) return { credentialsRejected: `http ${failure.status}: ${failure.message}` };
  if (failure?.status !== 404) return undefined;
  const detail = `http 404: ${failure.message}`;
  if (NoSuchService.test(failure.message))
    return { notFound: { what: 'project', field: 'spec.serviceName', id: nodeClass.spec.serviceName, detail } };
  const field = nodeClass.spec.kubeId ? 'spec.kubeId' : 'the operator-wide kubeId (OVH_KUBE_ID)';
  return { notFound: { what: 'cluster', field, id: kubeId ?? '', detail } };
}

/** A spec.region that is not the cluster's: its nodes launch in the cluster's region whatever the class says. */
function regionFacts(
  nodeClass: OVHNodeClass,
  accounts: OvhAccounts,
  kubeId: string,
  clusterRegion: string | undefined,
): NodeClassCloudFacts {
  const region = nodeClass.spec.region;
  if (!region || !clusterRegion || region.toUpperCase() === clusterRegion.toUpperCase()) return {};
  const field = nodeClass.spec.kubeId
    ? 'spec.kubeId'
    : accounts.operatorKubeId()
      ? 'the operator-wide kubeId (OVH_KUBE_ID)'
      : "detected from this cluster's nodes";
  return { regionMismatch: { field: 'spec.region', region, cluster: { id: kubeId, field, region: clusterRegion } } };
}

export async function ovhNodeClassFacts(
  nodeClass: OVHNodeClass,
  accounts: OvhAccounts,
  call: OvhCaller,
): Promise<NodeClassCloudFacts | undefined> {
  const kubeId = nodeClass.spec.kubeId ?? accounts.operatorKubeId();
  try {
    const account = await accounts.forNodeClass(nodeClass);
    const cluster = await call(`reading mks cluster ${account.target.kubeId}`, () => account.api.getCluster(account.target));
    return regionFacts(nodeClass, accounts, account.target.kubeId, cluster.region);
  } catch (error) {
    // An undetected cluster is the detection's to report (KubeIdNotDetected).
    if (error instanceof KubeIdNotDetectedError) return undefined;
    const facts = factsOf(error, nodeClass, kubeId);
    if (facts) return facts;
    throw error;
  }
}
