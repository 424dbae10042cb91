/**
 * controller-runtime's reconcile metrics (`controller_runtime_reconcile_*`, per controller) and work-queue
 * metrics (`workqueue_*`, per queue and controller), with its names, labels and buckets, for the controllers that
 * reconcile one pass or one key at a time.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** controller-runtime's reconcile_time_seconds buckets. */
const ReconcileBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5,
  4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/** client-go's workqueue buckets: ExponentialBuckets(10e-9, 10, 12), 10 ns … 1000 s. */
const QueueBuckets = Array.from({ length: 12 }, (_, i) => Number((10e-9 * 10 ** i).toPrecision(1)));

/** controller-runtime's `result` values: `requeue_after` when the pass asked to run again later. */
export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

/** One work queue's instruments, bound to its name and controller. */
export interface QueueInstruments {
  added(delayed: boolean): void;
  taken(queuedSeconds: number): void;
  finished(workSeconds: number): void;
  depth(value: number): void;
}

export interface ReconcileMetrics {
  reconcileTotal: Counter<'controller' | 'result'>;
  reconcileErrors: Counter<'controller'>;
  reconcileTime: Histogram<'controller'>;
  queueDepth: Gauge<'name' | 'controller' | 'priority'>;
  queueAdds: Counter<'name' | 'controller'>;
  queueDuration: Histogram<'name' | 'controller'>;
  workDuration: Histogram<'name' | 'controller'>;
  queueRetries: Counter<'name' | 'controller'>;
  /** Records one reconcile of `controller` that took `seconds`. */
  record(controller: string, result: ReconcileResult, seconds: number): void;
  queue(name: string, controller: string): QueueInstruments;
}

function once<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

function reconcileFamilies(r: Registry): Pick<ReconcileMetrics, 'reconcileTotal' | 'reconcileErrors' | 'reconcileTime'> {
  return {
    reconcileTotal: once(
      r,
      'controller_runtime_reconcile_total',
      () =>
        new Counter({
          name: 'controller_runtime_reconcile_total',
          help: 'Total number of reconciliations per controller',
          labelNames: ['controller', 'result'] as const,
          registers: [r],
        }),
    ),
    reconcileErrors: once(
      r,
      'controller_runtime_reconcile_errors_total',
      () =>
        new Counter({
          name: 'controller_runtime_reconcile_errors_total',
          help: 'Total number of reconciliation errors per controller',
          labelNames: ['controller'] as const,
          registers: [r],
        }),
    ),
    reconcileTime: once(
      r,
      'controller_runtime_reconcile_time_seconds',
      () =>
        new Histogram({
          name: 'controller_runtime_reconcile_time_seconds',
          help: 'Length of time per reconciliation per controller',
          labelNames: ['controller'] as const,
          buckets: ReconcileBuckets,
          registers: [r],
        }),
    ),
  };
}

function queueFamilies(
  r: Registry,
): Pick<ReconcileMetrics, 'queueDepth' | 'queueAdds' | 'queueDuration' | 'workDuration' | 'queueRetries'> {
  const labelNames = ['name', 'controller'] as const;
  const counter = (name: string, help: string): Counter<'name' | 'controller'> =>
    once(r, name, () => new Counter({ name, help, labelNames, registers: [r] }));
  const histogram = (name: string, help: string): Histogram<'name' | 'controller'> =>
    once(r, name, () => new Histogram({ name, help, labelNames, buckets: QueueBuckets, registers: [r] }));
  return {
    queueDepth: once(
      r,
      'workqueue_depth',
      () =>
        new Gauge({
          name: 'workqueue_depth',
          help: 'Current depth of workqueue by workqueue and priority',
          labelNames: ['name', 'controller', 'priority'] as const,
          registers: [r],
        }),
    ),
    queueAdds: counter('workqueue_adds_total', 'Total number of adds handled by workqueue'),
    queueDuration: histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested'),
    workDuration: histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.'),
    queueRetries: counter(
      'workqueue_retries_total',
      'Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, explicit RequeueAfter or AddAfter calls)',
    ),
  };
}

export function reconcileMetrics(registry: Registry): ReconcileMetrics {
  const families = { ...reconcileFamilies(registry), ...queueFamilies(registry) };
  return {
    ...families,
    record(controller, result, seconds) {
      families.reconcileTotal.inc({ controller, result });
      if (result === 'error') families.reconcileErrors.inc({ controller });
      families.reconcileTime.observe({ controller }, seconds);
    },
    queue(name, controller) {
      const labels = { name, controller };
      families.queueDepth.set({ ...labels, priority: '0' }, 0);
      return {
        added: (delayed) => {
          families.queueAdds.inc(labels);
          if (delayed) families.queueRetries.inc(labels);
        },
        taken: (seconds) => families.queueDuration.observe(labels, seconds),
        finished: (seconds) => families.workDuration.observe(labels, seconds),
        depth: (value) => families.queueDepth.set({ ...labels, priority: '0' }, value),
      };
    },
  };
}
