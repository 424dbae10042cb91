/**
 * What Scaleway says about a ScalewayNodeClass, for its status: the image its `spec.image` (a marketplace
 * label or a UUID) resolves to in each of its zones, read with the class's credentials. Refused credentials
 * are a fact; any other failure is thrown (the status is left as it was and asked again later).
 */
import type { ScalewayNodeClass } from '../../apis/v1alpha1/scaleway-nodeclass.js';
import type { NodeClassCloudFacts, ResolvedImage } from '../../domain/nodeclass/cloud-facts.js';
import { findInChain } from '../errors.js';
import { ScalewayApiError } from './errors.js';
import type { ScalewayInstances } from './instances.js';

export async function scalewayNodeClassFacts(nodeClass: ScalewayNodeClass, account: ScalewayInstances): Promise<NodeClassCloudFacts> {
  const { image, zones } = nodeClass.spec;
  try {
    const found = await Promise.all(
      zones.map(async (zone): Promise<ResolvedImage | undefined> => {
        const resolved = await account.findImage(zone, image);
        return resolved ? { zone, ...resolved } : undefined;
      }),
    );
    const resolved = found.filter((i): i is ResolvedImage => i !== undefined);
    // An image missing in one zone is missing where nodes may launch: report the zones lacking it.
    const lacking = zones.filter((z) => !resolved.some((i) => i.zone === z));
    return {
      image: {
        field: 'spec.image',
        ref: image,
        where: lacking.join(', ') || zones.join(', '),
        resolved: lacking.length > 0 ? [] : resolved,
      },
    };
  } catch (error) {
    const failure = findInChain(error, ScalewayApiError)?.failure;
    if (failure?.status === 401 || failure?.status === 403)
      return { credentialsRejected: `http ${failure.status}${failure.type ? ` ${failure.type}` : ''}: ${failure.message}` };
    throw error;
  }
}
