/** Adapters over @kubernetes/client-node: the Kube port, informers and the Event recorder. */
export * from './errors.js';
export { mapKubeError } from './error-mapping.js';
export * from './resources.js';
export * from './types.js';
export { ClientNodeKube, createKube } from './client.js';
export { ResourceInformer, InformerStoppedError, type InformerHandlers, type InformerOptions } from './informer.js';
export { EventRecorder, type EventRecord, type EventRecorderOptions, type InvolvedObject } from './events.js';
