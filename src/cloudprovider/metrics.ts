/**
 * Cloud call metrics as a decorator applied at the composition root (Karpenter's `metrics.Decorate`):
 * providers stay free of instrumentation, and every provider is measured the same way.
 * Names follow Karpenter so existing dashboards keep working.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { InstanceType } from '../domain/instancetypes/types.js';
import { currentControllerName } from '../util/controller-name.js';
import { errorClassName } from './errors.js';
import { decorateCloudProvider } from './decorate.js';
import type { CloudProvider } from './types.js';

export const CloudProviderDurationMetric = 'karpenter_cloudprovider_duration_seconds';
export const CloudProviderErrorsMetric = 'karpenter_cloudprovider_errors_total';

/** Karpenter's DurationBuckets: controller-runtime's up to 1 s, then up to the 10 min a slow create may take. */
const DurationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, 120,
  150, 300, 450, 600,
];

type OfferingLabel = 'instance_type' | 'capacity_type' | 'zone';

export interface CloudProviderMetrics {
  duration: Histogram<'controller' | 'method' | 'provider'>;
  errors: Counter<'controller' | 'method' | 'provider' | 'error'>;
  /** Upstream's (AWS provider's) instance-type gauges, set from each `getInstanceTypes` answer. */
  instanceTypeCpu: Gauge<'instance_type'>;
  instanceTypeMemory: Gauge<'instance_type'>;
  offeringAvailable: Gauge<OfferingLabel>;
  offeringPrice: Gauge<OfferingLabel>;
}

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames, registers: [registry] });
}

const offeringLabels: readonly OfferingLabel[] = ['instance_type', 'capacity_type', 'zone'];

function instanceTypeMetrics(
  registry: Registry,
): Pick<CloudProviderMetrics, 'instanceTypeCpu' | 'instanceTypeMemory' | 'offeringAvailable' | 'offeringPrice'> {
  return {
    instanceTypeCpu: gauge(registry, 'karpenter_cloudprovider_instance_type_cpu_cores', 'VCPUs cores for a given instance type.', [
      'instance_type',
    ]),
    instanceTypeMemory: gauge(
      registry,
      'karpenter_cloudprovider_instance_type_memory_bytes',
      'Memory, in bytes, for a given instance type.',
      ['instance_type'],
    ),
    offeringAvailable: gauge(
      registry,
      'karpenter_cloudprovider_instance_type_offering_available',
      'Instance type offering availability, based on instance type, capacity type, and zone',
      offeringLabels,
    ),
    offeringPrice: gauge(
      registry,
      'karpenter_cloudprovider_instance_type_offering_price_estimate',
      'Instance type offering estimated hourly price used when making informed decisions on node cost calculation, based on instance type, capacity type, and zone.',
      offeringLabels,
    ),
  };
}

/** Sets the instance-type gauges from one answer: the types and offerings provisioning plans with now. */
export function recordInstanceTypes(metrics: CloudProviderMetrics, types: readonly InstanceType[]): void {
  for (const type of types) {
    // Capacity cpu is in millicores (domain/instancetypes/types.ts); upstream reports cores.
    metrics.instanceTypeCpu.set({ instance_type: type.name }, (type.capacity.cpu ?? 0) / 1000);
    metrics.instanceTypeMemory.set({ instance_type: type.name }, type.capacity.memory ?? 0);
    for (const o of type.offerings) {
      const labels = { instance_type: type.name, capacity_type: o.capacityType, zone: o.zone };
      metrics.offeringAvailable.set(labels, o.available ? 1 : 0);
      metrics.offeringPrice.set(labels, o.pricePerHour);
    }
  }
}

/** The cloud-call and instance-type metrics in `registry`, created on first use; several decorated providers share them. */
export function cloudProviderMetrics(registry: Registry): CloudProviderMetrics {
  const duration =
    (registry.getSingleMetric(CloudProviderDurationMetric) as Histogram<'controller' | 'method' | 'provider'> | undefined) ??
    new Histogram({
      name: CloudProviderDurationMetric,
      help: 'Duration of cloud provider method calls. Labeled by the controller, method and provider.',
      labelNames: ['controller', 'method', 'provider'],
      buckets: DurationBuckets,
      registers: [registry],
    });
  const errors =
    (registry.getSingleMetric(CloudProviderErrorsMetric) as Counter<'controller' | 'method' | 'provider' | 'error'> | undefined) ??
    new Counter({
      name: CloudProviderErrorsMetric,
      help: 'Total number of errors returned from cloud provider calls. Labeled by the controller, method, provider and error.',
      labelNames: ['controller', 'method', 'provider', 'error'],
      registers: [registry],
    });
  return { duration, errors, ...instanceTypeMetrics(registry) };
}

export interface MetricsDecoratorOptions {
  /** Monotonic milliseconds; `performance.now` unless a test injects another source. */
  now?: () => number;
}

/**
 * Wraps `cp` so each of Karpenter's calls records its duration, and each failure its error class, in `registry`;
 * the other members are forwarded as they are.
 */
export function decorateWithMetrics(cp: CloudProvider, registry: Registry, options: MetricsDecoratorOptions = {}): CloudProvider {
  const metrics = cloudProviderMetrics(registry);
  const now = options.now ?? (() => performance.now());
  // Method label values are Karpenter's Go method names, as its dashboards expect.
  const measure = async <T>(method: string, call: () => Promise<T>): Promise<T> => {
    const labels = { controller: currentControllerName(), method, provider: cp.name };
    const start = now();
    try {
      return await call();
    } catch (error) {
      metrics.errors.inc({ ...labels, error: errorClassName(error) });
      throw error;
    } finally {
      metrics.duration.observe(labels, (now() - start) / 1000);
    }
  };
  return decorateCloudProvider(cp, {
    create: (next) => (nodeClaim) => measure('Create', () => next(nodeClaim)),
    delete: (next) => (nodeClaim) => measure('Delete', () => next(nodeClaim)),
    get: (next) => (providerID) => measure('Get', () => next(providerID)),
    list: (next) => () => measure('List', () => next()),
    getInstanceTypes: (next) => async (nodePool) => {
      const types = await measure('GetInstanceTypes', () => next(nodePool));
      recordInstanceTypes(metrics, types);
      return types;
    },
    isDrifted: (next) => (nodeClaim) => measure('IsDrifted', () => next(nodeClaim)),
  });
}
