export {
  createDisruptionController,
  type DisruptionController,
  type DisruptionControllerDeps,
  type DisruptionOptions,
} from './controller.js';
export { CommandFailedError } from './executor.js';
