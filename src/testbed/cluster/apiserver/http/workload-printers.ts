/**
 * kube-apiserver's Table columns for pods and the apps kinds (pkg/printers/internalversion/printers.go):
 * the same column names, priorities and cell values `kubectl get` shows against a real cluster.
 */
import { type KubeObject } from '../kube-object.js';
import {
  age,
  type Column,
  containersAndImages,
  field,
  formatLabels,
  formatSelector,
  int,
  nameColumn,
  ageColumn,
  type Obj,
  type Printer,
  since,
} from './printer-format.js';

const templateColumns: Column[] = [
  { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.' },
  { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.' },
];
const selectorColumn: Column = { name: 'Selector', type: 'string', priority: 1, description: 'Label query over pods.' };

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: { reason?: string; signal?: number; exitCode?: number } };
  lastState?: { terminated?: { finishedAt?: string } };
}

/** printPod's STATUS: the phase, replaced by a container's waiting or terminated reason, or Terminating. */
function podStatus(pod: KubeObject, statuses: ContainerStatus[]): { reason: string; ready: number } {
  const status = (pod.status ?? {}) as Obj;
  let reason = typeof status.reason === 'string' && status.reason ? status.reason : String(status.phase ?? '');
  let ready = 0;
  let hasRunning = false;
  for (const c of [...statuses].reverse()) {
    const state = c.state ?? {};
    if (state.waiting?.reason) reason = state.waiting.reason;
    else if (state.terminated?.reason) reason = state.terminated.reason;
    else if (state.terminated)
      reason = state.terminated.signal ? `Signal:${state.terminated.signal}` : `ExitCode:${state.terminated.exitCode ?? 0}`;
    else if (c.ready && state.running) {
      hasRunning = true;
      ready++;
    }
  }
  if (reason === 'Completed' && hasRunning) {
    const conditions = (status.conditions as Array<{ type: string; status: string }> | undefined) ?? [];
    reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
  }
  if (pod.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return { reason, ready };
}

function restarts(statuses: ContainerStatus[], nowMs: number): string {
  let total = 0;
  let last = '';
  for (const c of statuses) {
    total += c.restartCount ?? 0;
    const finished = c.lastState?.terminated?.finishedAt ?? '';
    if (finished > last) last = finished;
  }
  return total !== 0 && last ? `${total} (${since(last, nowMs)} ago)` : String(total);
}

const pod: Printer = {
  columns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'The aggregate readiness state of this pod for accepting traffic.' },
    { name: 'Status', type: 'string', description: 'The aggregate status of the containers in this pod.' },
    {
      name: 'Restarts',
      type: 'string',
      description:
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    },
    ageColumn,
    { name: 'IP', type: 'string', priority: 1, description: 'podIP address allocated to the pod.' },
    { name: 'Node', type: 'string', priority: 1, description: 'NodeName indicates in which node this pod is scheduled.' },
    {
      name: 'Nominated Node',
      type: 'string',
      priority: 1,
      description: 'nominatedNodeName is set when this pod preempts other pods on the node.',
    },
    {
      name: 'Readiness Gates',
      type: 'string',
      priority: 1,
      description: 'If specified, all readiness gates will be evaluated for pod readiness.',
    },
  ],
  cells(o, nowMs) {
    const statuses = (field(o.status, 'containerStatuses') as ContainerStatus[] | undefined) ?? [];
    const total = ((field(o.spec, 'containers') as unknown[] | undefined) ?? []).length;
    const { reason, ready } = podStatus(o, statuses);
    const gates = (field(o.spec, 'readinessGates') as Array<{ conditionType: string }> | undefined) ?? [];
    const conditions = (field(o.status, 'conditions') as Array<{ type: string; status: string }> | undefined) ?? [];
    const gatesReady = gates.filter((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True')).length;
    return [
      o.metadata.name,
      `${ready}/${total}`,
      reason,
      restarts(statuses, nowMs),
      age(o, nowMs),
      (field(o.status, 'podIP') as string | undefined) || '<none>',
      (field(o.spec, 'nodeName') as string | undefined) || '<none>',
      (field(o.status, 'nominatedNodeName') as string | undefined) || '<none>',
      gates.length > 0 ? `${gatesReady}/${gates.length}` : '<none>',
    ];
  },
};

const deployment: Printer = {
  columns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'Number of the pod with ready state' },
    {
      name: 'Up-to-date',
      type: 'string',
      description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    },
    ageColumn,
    ...templateColumns,
    selectorColumn,
  ],
  cells(o, nowMs) {
    const [containers, images] = containersAndImages(field(o.spec, 'template', 'spec'));
    return [
      o.metadata.name,
      `${int(field(o.status, 'readyReplicas'))}/${int(field(o.spec, 'replicas'))}`,
      int(field(o.status, 'updatedReplicas')),
      int(field(o.status, 'availableReplicas')),
      age(o, nowMs),
      containers,
      images,
      formatSelector(field(o.spec, 'selector')),
    ];
  },
};

const replicaSet: Printer = {
  columns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired replicas.' },
    { name: 'Current', type: 'integer', description: 'Replicas is the most recently observed number of replicas.' },
    { name: 'Ready', type: 'integer', description: 'The number of ready replicas for this replica set.' },
    ageColumn,
    ...templateColumns,
    selectorColumn,
  ],
  cells(o, nowMs) {
    const [containers, images] = containersAndImages(field(o.spec, 'template', 'spec'));
    return [
      o.metadata.name,
      int(field(o.spec, 'replicas')),
      int(field(o.status, 'replicas')),
      int(field(o.status, 'readyReplicas')),
      age(o, nowMs),
      containers,
      images,
      formatSelector(field(o.spec, 'selector')),
    ];
  },
};

const statefulSet: Printer = {
  columns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'Number of the pod with ready state' },
    ageColumn,
    ...templateColumns,
  ],
  cells(o, nowMs) {
    const [containers, images] = containersAndImages(field(o.spec, 'template', 'spec'));
    return [
      o.metadata.name,
      `${int(field(o.status, 'readyReplicas'))}/${int(field(o.spec, 'replicas'))}`,
      age(o, nowMs),
      containers,
      images,
    ];
  },
};

const daemonSet: Printer = {
  columns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: 'The total number of nodes that should be running the daemon pod.' },
    { name: 'Current', type: 'integer', description: 'The number of nodes that are running at least 1 daemon pod.' },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
    },
    { name: 'Up-to-date', type: 'integer', description: 'The total number of nodes that are running updated daemon pod' },
    {
      name: 'Available',
      type: 'integer',
      description:
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.',
    },
    { name: 'Node Selector', type: 'string', description: 'NodeSelector is a selector which must be true for the pod to fit on a node.' },
    ageColumn,
    ...templateColumns,
    selectorColumn,
  ],
  cells(o, nowMs) {
    const podSpec = field(o.spec, 'template', 'spec');
    const [containers, images] = containersAndImages(podSpec);
    const s = (key: string) => int(field(o.status, key));
    return [
      o.metadata.name,
      s('desiredNumberScheduled'),
      s('currentNumberScheduled'),
      s('numberReady'),
      s('updatedNumberScheduled'),
      s('numberAvailable'),
      formatLabels(field(podSpec, 'nodeSelector')),
      age(o, nowMs),
      containers,
      images,
      formatSelector(field(o.spec, 'selector')),
    ];
  },
};

export const workloadPrinters: Record<string, Printer> = {
  '/pods': pod,
  'apps/deployments': deployment,
  'apps/replicasets': replicaSet,
  'apps/statefulsets': statefulSet,
  'apps/daemonsets': daemonSet,
};
