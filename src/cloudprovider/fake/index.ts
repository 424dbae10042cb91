export { FakeCloudProvider, FakeNodeClass, type FakeCloudProviderOptions } from './fake-cloud-provider.js';
export { fakeInstanceType, fakeInstanceTypes, FakeRegion, FakeZones, type FakeInstanceTypeSpec } from './instance-types.js';
