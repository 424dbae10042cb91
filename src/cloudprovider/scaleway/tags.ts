/**
 * The tags that tie a Scaleway server to its cluster, NodePool and NodeClaim. Scaleway tags are plain
 * strings; ours are `key=value`. `listServers?tags=` matches exact tags joined by commas, so no tag may
 * contain a comma.
 */
import { LabelNodePool } from '../../apis/v1/labels.js';

export const TagCluster = 'karpenter-eu.io/cluster';
export const TagNodeClaim = 'karpenter.sh/nodeclaim';
export const TagNodeClaimUID = 'karpenter-eu.io/nodeclaim-uid';
export const TagNodePool = LabelNodePool;
export const TagNodeClass = 'karpenter-eu.io/nodeclass';
/** The NodeClass image the server was launched with (the API reports image ids, not the labels users write). */
export const TagImage = 'karpenter-eu.io/image';
/** Hash of the NodeClass's join settings and user data at launch, for drift. */
export const TagUserDataHash = 'karpenter-eu.io/userdata-hash';

export class InvalidTagError extends Error {
  constructor(key: string, value: string) {
    super(`building server tags: tag "${key}=${value}" contains a comma; accepted: keys and values without ","`);
    this.name = 'InvalidTagError';
  }
}

export function tag(key: string, value: string): string {
  if (key.includes(',') || value.includes(',')) throw new InvalidTagError(key, value);
  return `${key}=${value}`;
}

/** The value of `key` among `key=value` tags. */
export function tagValue(tags: readonly string[], key: string): string | undefined {
  const prefix = `${key}=`;
  return tags.find((t) => t.startsWith(prefix))?.slice(prefix.length);
}

export function clusterTag(clusterName: string): string {
  return tag(TagCluster, clusterName);
}

export interface LaunchTagsInput {
  clusterName: string;
  nodeClaimName: string;
  nodeClaimUID?: string;
  nodePoolName?: string;
  nodeClassName: string;
  image: string;
  userDataHash: string;
  /** The NodeClass's own tags. */
  extra?: Readonly<Record<string, string>>;
}

export function launchTags(input: LaunchTagsInput): string[] {
  const tags = [
    clusterTag(input.clusterName),
    tag(TagNodeClaim, input.nodeClaimName),
    tag(TagNodeClass, input.nodeClassName),
    tag(TagImage, input.image),
    tag(TagUserDataHash, input.userDataHash),
  ];
  if (input.nodeClaimUID) tags.push(tag(TagNodeClaimUID, input.nodeClaimUID));
  if (input.nodePoolName) tags.push(tag(TagNodePool, input.nodePoolName));
  for (const [key, value] of Object.entries(input.extra ?? {})) tags.push(tag(key, value));
  return tags;
}

/** The tags that find the server launched for a NodeClaim: its uid when known, else its name. */
export function nodeClaimLookupTags(clusterName: string, nodeClaim: { name: string; uid?: string }): string[] {
  return [clusterTag(clusterName), nodeClaim.uid ? tag(TagNodeClaimUID, nodeClaim.uid) : tag(TagNodeClaim, nodeClaim.name)];
}
