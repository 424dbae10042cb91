/**
 * What a cloud said about the resources a NodeClass names — its credentials, project and cluster, image,
 * subnets, security groups — and what that means for `Ready` and the status fields, as upstream's
 * EC2NodeClass reports resolved AMIs, subnets and security groups. Providers gather the facts; the reasons,
 * their order and the fix are decided here.
 */

export interface ResolvedImage {
  id: string;
  name?: string;
  /** The zone the id holds in, where images are per zone. */
  zone?: string;
}

export interface NodeClassCloudFacts {
  /** The cloud refused the class's credentials: its answer. */
  credentialsRejected?: string;
  /** A project, account or cluster the class names that the cloud says does not exist. */
  notFound?: { what: 'project' | 'cluster'; field: string; id: string; detail: string };
  /** The class names a region its cluster is not in (OVH: spec.region and the MKS cluster's own region). */
  regionMismatch?: { field: string; region: string; cluster: { id: string; field: string; region: string } };
  /** The image the class names (`ref`), and what it resolved to; `resolved` empty when it does not exist. */
  image?: { field: string; ref: string; where: string; resolved: ResolvedImage[] };
  /** Each subnet the class names, with the subregion the class puts it in and the one the cloud has it in. */
  subnets?: { field: string; id: string; zone: string; found?: { zone: string } }[];
  securityGroups?: { field: string; id: string; found?: { name: string } }[];
  /** Each GPU a NodePool on this class asks for, and the GPUs the class's zones offer (with their zones). */
  gpus?: { nodePool: string; gpu: string; offered: readonly { gpu: string; zones: readonly string[] }[] }[];
}

export interface CloudVerdict {
  reason: string;
  message: string;
}

function imageVerdict(image: NonNullable<NodeClassCloudFacts['image']>): CloudVerdict | undefined {
  if (image.resolved.length > 0) return undefined;
  return {
    reason: 'ImageNotFound',
    message: `${image.field} ${JSON.stringify(image.ref)}: no such image in ${image.where}; set it to an image that exists there`,
  };
}

function subnetVerdict(subnets: NonNullable<NodeClassCloudFacts['subnets']>): CloudVerdict | undefined {
  const missing = subnets.filter((s) => !s.found);
  if (missing.length > 0) {
    return {
      reason: 'SubnetNotFound',
      message: `${missing.map((s) => `${s.field} ${JSON.stringify(s.id)}`).join(', ')}: no such subnet for these credentials; set existing subnet ids`,
    };
  }
  const misplaced = subnets.filter((s) => s.found && s.found.zone !== s.zone);
  if (misplaced.length === 0) return undefined;
  const detail = misplaced.map((s) => `${s.field} ${JSON.stringify(s.id)} is in ${s.found?.zone ?? ''}, not ${s.zone}`).join('; ');
  return { reason: 'SubnetZoneMismatch', message: `${detail}: set each subnet's subregion to the one the cloud has it in` };
}

function securityGroupVerdict(groups: NonNullable<NodeClassCloudFacts['securityGroups']>): CloudVerdict | undefined {
  const missing = groups.filter((g) => !g.found);
  if (missing.length === 0) return undefined;
  return {
    reason: 'SecurityGroupNotFound',
    message: `${missing.map((g) => `${g.field} ${JSON.stringify(g.id)}`).join(', ')}: no such security group for these credentials; set existing security group ids`,
  };
}

function gpuVerdict(gpus: NonNullable<NodeClassCloudFacts['gpus']>): CloudVerdict | undefined {
  const missing = gpus.filter((g) => !g.offered.some((o) => o.gpu === g.gpu));
  if (missing.length === 0) return undefined;
  const offered = missing[0]?.offered.map((o) => `${o.gpu} (${o.zones.join(', ')})`).join(', ') || 'none';
  const asked = missing.map((g) => `NodePool ${g.nodePool} asks for GPU ${JSON.stringify(g.gpu)}`).join('; ');
  return {
    reason: 'GpuNotOffered',
    message: `${asked}, which no zone of this class offers; GPUs its zones offer: ${offered}. Add a zone that sells it or change the NodePool's karpenter-eu.io/instance-gpu-name`,
  };
}

/** Why the cloud's answers make the class unusable, the first cause first; undefined when they do not. */
export function cloudVerdict(facts: NodeClassCloudFacts): CloudVerdict | undefined {
  if (facts.credentialsRejected !== undefined) {
    return {
      reason: 'CredentialsRejected',
      message: `the cloud refused the credentials (${facts.credentialsRejected}): put valid keys with the rights docs/install.md lists in the Secret`,
    };
  }
  if (facts.notFound) {
    const { what, field, id, detail } = facts.notFound;
    return {
      reason: what === 'project' ? 'ProjectNotFound' : 'ClusterNotFound',
      message: `${field} ${JSON.stringify(id)}: no such ${what} for these credentials (${detail}); set ${field} to one they can reach`,
    };
  }
  if (facts.regionMismatch) {
    const { field, region, cluster } = facts.regionMismatch;
    return {
      reason: 'RegionMismatch',
      message: `${field} ${JSON.stringify(region)} is not the region of MKS cluster ${cluster.id} (${cluster.field}), which is in ${JSON.stringify(cluster.region)}: set ${field} to ${JSON.stringify(cluster.region)} or remove it (the cluster's region is used then)`,
    };
  }
  return (
    (facts.image && imageVerdict(facts.image)) ??
    (facts.subnets && subnetVerdict(facts.subnets)) ??
    (facts.securityGroups && securityGroupVerdict(facts.securityGroups)) ??
    (facts.gpus && gpuVerdict(facts.gpus))
  );
}

/** The status fields users read (`kubectl get -o yaml`): what the names resolved to, only what was found. */
export function resolvedStatusFields(facts: NodeClassCloudFacts | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (facts?.image && facts.image.resolved.length > 0) fields.images = facts.image.resolved.map((i) => ({ ...i }));
  const subnets = facts?.subnets?.filter((s) => s.found);
  if (subnets && subnets.length > 0) fields.subnets = subnets.map((s) => ({ id: s.id, zone: s.found?.zone ?? s.zone }));
  const groups = facts?.securityGroups?.filter((g) => g.found);
  if (groups && groups.length > 0) fields.securityGroups = groups.map((g) => ({ id: g.id, name: g.found?.name ?? '' }));
  return fields;
}

/**
 * The GPU models the instance types offer, each with the zones it is offered in (sorted, for stable
 * messages). Providers list every type, those without an offering in the class's zones included: those are
 * not offered.
 */
export function offeredGpus(
  types: readonly { gpu?: { name: string }; offerings: readonly { zone: string }[] }[],
): { gpu: string; zones: string[] }[] {
  const zones = new Map<string, Set<string>>();
  for (const type of types) {
    if (!type.gpu || type.offerings.length === 0) continue;
    const set = zones.get(type.gpu.name) ?? new Set<string>();
    for (const o of type.offerings) set.add(o.zone);
    zones.set(type.gpu.name, set);
  }
  return [...zones].map(([gpu, set]) => ({ gpu, zones: [...set].sort() })).sort((a, b) => a.gpu.localeCompare(b.gpu));
}

interface NodePoolLike {
  metadata?: { name?: string };
  spec?: {
    template?: {
      spec?: {
        nodeClassRef?: { kind?: string; name?: string };
        requirements?: readonly { key?: string; operator?: string; values?: readonly string[] }[];
      };
    };
  };
}

/** The GPU models NodePools on the class ask for by name (`karpenter-eu.io/instance-gpu-name In`). */
export function requestedGpus<P extends NodePoolLike>(
  nodePools: readonly P[],
  kind: string,
  name: string,
  gpuNameKey: string,
): { nodePool: P; gpu: string }[] {
  return nodePools.flatMap((pool) => {
    const template = pool.spec?.template?.spec;
    if (template?.nodeClassRef?.kind !== kind || template.nodeClassRef.name !== name) return [];
    const wanted = (template.requirements ?? []).filter((r) => r.key === gpuNameKey && r.operator === 'In').flatMap((r) => r.values ?? []);
    return [...new Set(wanted)].map((gpu) => ({ nodePool: pool, gpu }));
  });
}
