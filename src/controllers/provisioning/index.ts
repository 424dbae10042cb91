/** The provisioning controller: pending pods → batches → scheduling simulation → NodeClaims. */
export {
  createProvisioningController,
  type ProvisioningController,
  type ProvisioningDeps,
  type ProvisioningOptions,
} from './provisioner.js';
export { createPendingPodInformer, type PendingPodInformerOptions, type PendingPodSource } from './pending-pods.js';
export type { ProvisioningResult } from './provision-pass.js';
export { Batcher } from './batcher.js';
