/** The NodeClaim lifecycle controller: Launched → Registered → Initialized, and liveness timeouts. */
export {
  createLifecycleController,
  type LifecycleController,
  type LifecycleDeps,
  type LifecycleOptions,
  type ReconcileOutcome,
} from './controller.js';
export { AnnotationLaunchRequested, ReasonAwaitingListing, ReasonInsufficientCapacity } from './launch.js';
