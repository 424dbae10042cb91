/**
 * What Outscale says about the resources an OutscaleNodeClass names, for its status: the image (ReadImages),
 * the subnets and their subregions (ReadSubnets), the security groups (ReadSecurityGroups), read with the
 * class's own credentials. A refusal of those credentials is a fact; any other failure is thrown (the status
 * is left as it was and asked again later).
 */
import type { OutscaleNodeClass } from '../../apis/v1alpha1/outscale-nodeclass.js';
import type { NodeClassCloudFacts } from '../../domain/nodeclass/cloud-facts.js';
import { findInChain } from '../errors.js';
import type { LaunchContext } from './launch.js';
import { OutscaleApiError } from './errors.js';

function credentialsRefusal(error: unknown): string | undefined {
  const api = findInChain(error, OutscaleApiError);
  return api && (api.status === 401 || api.status === 403) ? api.message : undefined;
}

async function read(nodeClass: OutscaleNodeClass, ctx: Pick<LaunchContext, 'api' | 'call'>): Promise<NodeClassCloudFacts> {
  const spec = nodeClass.spec;
  const subnetIds = spec.subnets.map((s) => s.subnetId);
  const [images, subnets, groups] = await Promise.all([
    ctx.call(`reading image ${spec.imageId}`, () => ctx.api.readImages({ Filters: { ImageIds: [spec.imageId] } })),
    ctx.call('reading the nodeclass subnets', () => ctx.api.readSubnets({ Filters: { SubnetIds: subnetIds } })),
    ctx.call('reading the nodeclass security groups', () =>
      ctx.api.readSecurityGroups({ Filters: { SecurityGroupIds: [...spec.securityGroupIds] } }),
    ),
  ]);
  const image = images.Images.find((i) => i.ImageId === spec.imageId);
  return {
    image: {
      field: 'spec.imageId',
      ref: spec.imageId,
      where: spec.region,
      resolved: image ? [{ id: image.ImageId, name: image.ImageName }] : [],
    },
    subnets: spec.subnets.map((s, i) => {
      const found = subnets.Subnets.find((n) => n.SubnetId === s.subnetId);
      return {
        field: `spec.subnets[${i}].subnetId`,
        id: s.subnetId,
        zone: s.subregion,
        ...(found ? { found: { zone: found.SubregionName } } : {}),
      };
    }),
    securityGroups: spec.securityGroupIds.map((id, i) => {
      const found = groups.SecurityGroups.find((g) => g.SecurityGroupId === id);
      return { field: `spec.securityGroupIds[${i}]`, id, ...(found ? { found: { name: found.SecurityGroupName } } : {}) };
    }),
  };
}

export async function outscaleNodeClassFacts(
  nodeClass: OutscaleNodeClass,
  ctx: Pick<LaunchContext, 'api' | 'call'>,
): Promise<NodeClassCloudFacts> {
  try {
    return await read(nodeClass, ctx);
  } catch (error) {
    const refused = credentialsRefusal(error);
    if (refused !== undefined) return { credentialsRejected: refused };
    throw error;
  }
}
