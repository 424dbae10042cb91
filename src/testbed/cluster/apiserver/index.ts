/** The simulated Kubernetes API server's public surface for the test bed, the demo and the benchmarks. */
export { startApiServer, type ApiServer, type ApiServerOptions } from './server.js';
export { type ObjectStore, type StoreEvent } from './object-store.js';
export { type ObjectService } from './object-service.js';
export { type KubeObject } from './kube-object.js';
export { type ResourceType, apiVersionOf, storageKey } from './resource-type.js';
export { systemContext, adminUser, type WriteContext } from './write-context.js';
export { ApiError } from './errors.js';
export { type ServiceResolver, type ServiceReference } from './admission/webhook-configuration.js';
export { WatchDelays, type WatchDelayProfile, type WatchDelaySettings } from './watch-delay.js';
