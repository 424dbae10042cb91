export {
  createTerminationController,
  type TerminationController,
  type TerminationControllerDeps,
  type TerminationControllerOptions,
} from './termination-controller.js';
export { deleteNodeClaimWithReason } from './object-operations.js';
