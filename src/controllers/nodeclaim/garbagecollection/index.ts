export {
  createGarbageCollectionController,
  type GarbageCollectionController,
  type GarbageCollectionControllerDeps,
  type GarbageCollectionOptions,
  type PassReport,
} from './garbage-collection-controller.js';
export { garbageCollectionMetrics, type GarbageCollectionMetrics } from './metrics.js';
