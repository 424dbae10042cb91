/** The scheduling simulation's types the provisioner passes around (re-exported to keep imports short). */
export type {
  ExistingNode,
  PlannedNodeClaim,
  SchedulingInput,
  SchedulingNodePool,
  SchedulingResult,
} from '../../domain/scheduling/index.js';
export type { RequirementSpec as RequirementSpecLike } from '../../domain/instancetypes/types.js';
