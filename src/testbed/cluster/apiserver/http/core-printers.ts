/**
 * kube-apiserver's Table columns for nodes, events and the other built-in kinds served here
 * (pkg/printers/internalversion/printers.go): column names, priorities and cell values as `kubectl get` shows them.
 */
import { type KubeObject } from '../kube-object.js';
import { age, ageColumn, type Column, count, field, formatLabels, int, nameColumn, type Printer, since, text } from './printer-format.js';

function simple(columns: Column[], cells: (o: KubeObject) => unknown[]): Printer {
  return { columns: [nameColumn, ...columns, ageColumn], cells: (o, nowMs) => [o.metadata.name, ...cells(o), age(o, nowMs)] };
}

function nodeStatus(node: KubeObject): string {
  const ready = ((field(node.status, 'conditions') as Array<{ type: string; status: string }> | undefined) ?? []).find(
    (c) => c.type === 'Ready',
  );
  const status = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (field(node.spec, 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/') && key.length > 'node-role.kubernetes.io/'.length)
      roles.add(key.slice('node-role.kubernetes.io/'.length));
    if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  const addresses = (field(node.status, 'addresses') as Array<{ type: string; address: string }> | undefined) ?? [];
  return addresses.find((a) => a.type === type)?.address ?? '<none>';
}

const node: Printer = {
  columns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'The status of the node' },
    { name: 'Roles', type: 'string', description: 'The roles of the node' },
    ageColumn,
    { name: 'Version', type: 'string', description: 'Kubelet Version reported by the node.' },
    { name: 'Internal-IP', type: 'string', priority: 1, description: 'List of addresses reachable to the node.' },
    { name: 'External-IP', type: 'string', priority: 1, description: 'List of addresses reachable to the node.' },
    { name: 'OS-Image', type: 'string', priority: 1, description: 'OS Image reported by the node from /etc/os-release.' },
    { name: 'Kernel-Version', type: 'string', priority: 1, description: "Kernel Version reported by the node from 'uname -r'." },
    {
      name: 'Container-Runtime',
      type: 'string',
      priority: 1,
      description: 'ContainerRuntime Version reported by the node through runtime remote API.',
    },
  ],
  cells(o, nowMs) {
    const info = (key: string) => text(field(o.status, 'nodeInfo', key), '<unknown>');
    return [
      o.metadata.name,
      nodeStatus(o),
      nodeRoles(o),
      age(o, nowMs),
      text(field(o.status, 'nodeInfo', 'kubeletVersion'), ''),
      nodeAddress(o, 'InternalIP'),
      nodeAddress(o, 'ExternalIP'),
      info('osImage'),
      info('kernelVersion'),
      info('containerRuntimeVersion'),
    ];
  },
};

function eventSource(o: KubeObject): string {
  const component = text(field(o, 'source', 'component'), '') || text(field(o, 'reportingComponent'), '');
  const host = text(field(o, 'source', 'host'), '') || text(field(o, 'reportingInstance'), '');
  return host ? `${component}, ${host}` : component;
}

const event: Printer = {
  columns: [
    { name: 'Last Seen', type: 'string', description: 'The time at which the most recent occurrence of this event was recorded.' },
    { name: 'Type', type: 'string', description: 'Type of this event (Normal, Warning), new types could be added in the future' },
    {
      name: 'Reason',
      type: 'string',
      description:
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    },
    { name: 'Object', type: 'string', description: 'The object that this event is about.' },
    {
      name: 'Subobject',
      type: 'string',
      priority: 1,
      description:
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.',
    },
    {
      name: 'Source',
      type: 'string',
      priority: 1,
      description: 'The component reporting this event. Should be a short machine understandable string.',
    },
    { name: 'Message', type: 'string', description: 'A human-readable description of the status of this operation.' },
    {
      name: 'First Seen',
      type: 'string',
      priority: 1,
      description: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
    },
    { name: 'Count', type: 'string', priority: 1, description: 'The number of times this event has occurred.' },
    { ...nameColumn, priority: 1 },
  ],
  cells(o, nowMs) {
    const e = o as KubeObject & {
      firstTimestamp?: string;
      lastTimestamp?: string;
      eventTime?: string;
      count?: number;
      series?: { count?: number; lastObservedTime?: string };
    };
    const first = since(e.firstTimestamp || e.eventTime, nowMs);
    let last = e.lastTimestamp ? since(e.lastTimestamp, nowMs) : first;
    let times = e.count ?? 0;
    if (e.series) {
      last = since(e.series.lastObservedTime, nowMs);
      times = e.series.count ?? 0;
    } else if (times === 0) times = 1;
    const kind = text(field(o, 'involvedObject', 'kind'), '').toLowerCase();
    const name = text(field(o, 'involvedObject', 'name'), '');
    return [
      last,
      field(o, 'type') ?? '',
      field(o, 'reason') ?? '',
      name ? `${kind}/${name}` : kind,
      text(field(o, 'involvedObject', 'fieldPath'), ''),
      eventSource(o),
      field(o, 'message') ?? '',
      first,
      times,
      o.metadata.name,
    ];
  },
};

function servicePorts(o: KubeObject): string {
  const ports = (field(o.spec, 'ports') as Array<{ port: number; nodePort?: number; protocol?: string }> | undefined) ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

function serviceExternalIp(o: KubeObject): string {
  const type = text(field(o.spec, 'type'), 'ClusterIP');
  const external = (field(o.spec, 'externalIPs') as string[] | undefined) ?? [];
  if (type === 'ExternalName') return text(field(o.spec, 'externalName'));
  if (type === 'LoadBalancer') {
    const ingress = (field(o.status, 'loadBalancer', 'ingress') as Array<{ ip?: string; hostname?: string }> | undefined) ?? [];
    const all = [...ingress.map((i) => i.ip || i.hostname || ''), ...external].filter((x) => x);
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return external.length > 0 ? external.join(',') : '<none>';
}

const service: Printer = {
  columns: [
    nameColumn,
    { name: 'Type', type: 'string', description: 'type determines how the Service is exposed.' },
    { name: 'Cluster-IP', type: 'string', description: 'clusterIP is the IP address of the service.' },
    {
      name: 'External-IP',
      type: 'string',
      description: 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    },
    { name: 'Port(s)', type: 'string', description: 'The list of ports that are exposed by this service.' },
    ageColumn,
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'Route service traffic to pods with label keys and values matching this selector.',
    },
  ],
  cells: (o, nowMs) => [
    o.metadata.name,
    text(field(o.spec, 'type'), 'ClusterIP'),
    text(field(o.spec, 'clusterIP')),
    serviceExternalIp(o),
    servicePorts(o),
    age(o, nowMs),
    formatLabels(field(o.spec, 'selector')),
  ],
};

const accessModeShort: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};
const accessModes = (modes: unknown) => ((modes as string[] | undefined) ?? []).map((m) => accessModeShort[m] ?? m).join(',');

const pvc: Printer = {
  columns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'phase represents the current phase of PersistentVolumeClaim.' },
    { name: 'Volume', type: 'string', description: 'volumeName is the binding reference to the PersistentVolume backing this claim.' },
    { name: 'Capacity', type: 'string', description: 'capacity represents the actual resources of the underlying volume.' },
    { name: 'Access Modes', type: 'string', description: 'accessModes contains the actual access modes the volume backing the PVC has.' },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pvc' },
    { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass of the pvc' },
    ageColumn,
    { name: 'VolumeMode', type: 'string', priority: 1, description: 'volumeMode defines what type of volume is required by the claim.' },
  ],
  cells(o, nowMs) {
    const bound = text(field(o.spec, 'volumeName'), '');
    return [
      o.metadata.name,
      text(field(o.status, 'phase'), ''),
      bound,
      bound ? text(field(o.status, 'capacity', 'storage'), '') : '',
      bound ? accessModes(field(o.status, 'accessModes')) : '',
      text(field(o.spec, 'storageClassName'), '') || text(o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'], ''),
      text(field(o.spec, 'volumeAttributesClassName'), '<unset>'),
      age(o, nowMs),
      text(field(o.spec, 'volumeMode'), '<unset>'),
    ];
  },
};

const pv: Printer = {
  columns: [
    nameColumn,
    { name: 'Capacity', type: 'string', description: "capacity is the description of the persistent volume's resources and capacity." },
    { name: 'Access Modes', type: 'string', description: 'accessModes contains all ways the volume can be mounted.' },
    {
      name: 'Reclaim Policy',
      type: 'string',
      description: 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
    },
    { name: 'Status', type: 'string', description: 'phase indicates if a volume is available, bound to a claim, or released by a claim.' },
    {
      name: 'Claim',
      type: 'string',
      description: 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pv' },
    { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass of the pv' },
    { name: 'Reason', type: 'string', description: 'reason is a brief CamelCase string that describes any failure.' },
    ageColumn,
    {
      name: 'VolumeMode',
      type: 'string',
      priority: 1,
      description: 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
    },
  ],
  cells(o, nowMs) {
    const claim = field(o.spec, 'claimRef') as { namespace?: string; name?: string } | undefined;
    return [
      o.metadata.name,
      text(field(o.spec, 'capacity', 'storage'), ''),
      accessModes(field(o.spec, 'accessModes')),
      text(field(o.spec, 'persistentVolumeReclaimPolicy'), ''),
      text(field(o.status, 'phase'), ''),
      claim?.name ? `${claim.namespace ?? ''}/${claim.name}` : '',
      text(field(o.spec, 'storageClassName'), ''),
      text(field(o.spec, 'volumeAttributesClassName'), '<unset>'),
      text(field(o.status, 'reason'), ''),
      age(o, nowMs),
      text(field(o.spec, 'volumeMode'), '<unset>'),
    ];
  },
};

const rbacBinding: Printer = {
  columns: [
    nameColumn,
    {
      name: 'Role',
      type: 'string',
      description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.',
    },
    ageColumn,
    { name: 'Users', type: 'string', priority: 1, description: 'Users in the roleBinding' },
    { name: 'Groups', type: 'string', priority: 1, description: 'Groups in the roleBinding' },
    { name: 'ServiceAccounts', type: 'string', priority: 1, description: 'ServiceAccounts in the roleBinding' },
  ],
  cells(o, nowMs) {
    const subjects = (field(o, 'subjects') as Array<{ kind: string; name: string; namespace?: string }> | undefined) ?? [];
    const of = (kind: string) => subjects.filter((s) => s.kind === kind);
    return [
      o.metadata.name,
      `${text(field(o, 'roleRef', 'kind'), '')}/${text(field(o, 'roleRef', 'name'), '')}`,
      age(o, nowMs),
      of('User')
        .map((s) => s.name)
        .join(', '),
      of('Group')
        .map((s) => s.name)
        .join(', '),
      of('ServiceAccount')
        .map((s) => `${s.namespace ?? ''}:${s.name}`)
        .join(', '),
    ];
  },
};

const webhooks = simple(
  [{ name: 'Webhooks', type: 'integer', description: 'Webhooks is a list of webhooks and the affected resources and operations.' }],
  (o) => [count(field(o, 'webhooks'))],
);

export const corePrinters: Record<string, Printer> = {
  '/nodes': node,
  '/events': event,
  '/services': service,
  '/persistentvolumeclaims': pvc,
  '/persistentvolumes': pv,
  '/namespaces': simple([{ name: 'Status', type: 'string', description: 'The status of the namespace' }], (o) => [
    text(field(o.status, 'phase'), ''),
  ]),
  '/secrets': simple(
    [
      { name: 'Type', type: 'string', description: 'Used to facilitate programmatic handling of secret data.' },
      { name: 'Data', type: 'string', description: 'Data contains the secret data.' },
    ],
    (o) => [text(field(o, 'type'), ''), count(field(o, 'data'))],
  ),
  '/configmaps': simple([{ name: 'Data', type: 'string', description: 'Data contains the configuration data.' }], (o) => [
    count(field(o, 'data')) + count(field(o, 'binaryData')),
  ]),
  '/serviceaccounts': simple(
    [
      {
        name: 'Secrets',
        type: 'string',
        description:
          'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      },
    ],
    (o) => [count(field(o, 'secrets'))],
  ),
  'policy/poddisruptionbudgets': simple(
    [
      { name: 'Min Available', type: 'string', description: 'The minimum number of pods that must be available.' },
      { name: 'Max Unavailable', type: 'string', description: 'The maximum number of pods that may be unavailable.' },
      { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.' },
    ],
    (o) => [
      text(field(o.spec, 'minAvailable'), 'N/A'),
      text(field(o.spec, 'maxUnavailable'), 'N/A'),
      int(field(o.status, 'disruptionsAllowed')),
    ],
  ),
  'coordination.k8s.io/leases': simple(
    [{ name: 'Holder', type: 'string', description: 'holderIdentity contains the identity of the holder of a current lease.' }],
    (o) => [text(field(o.spec, 'holderIdentity'), '')],
  ),
  'storage.k8s.io/volumeattachments': simple(
    [
      {
        name: 'Attacher',
        type: 'string',
        format: 'name',
        description: 'attacher indicates the name of the volume driver that MUST handle this request.',
      },
      { name: 'PV', type: 'string', description: 'persistentVolumeName represents the name of the persistent volume to attach.' },
      { name: 'Node', type: 'string', description: 'nodeName represents the node that the volume should be attached to.' },
      { name: 'Attached', type: 'boolean', description: 'attached indicates the volume is successfully attached.' },
    ],
    (o) => [
      text(field(o.spec, 'attacher'), ''),
      text(field(o.spec, 'source', 'persistentVolumeName'), ''),
      text(field(o.spec, 'nodeName'), ''),
      field(o.status, 'attached') === true,
    ],
  ),
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhooks,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhooks,
  'rbac.authorization.k8s.io/rolebindings': rbacBinding,
  'rbac.authorization.k8s.io/clusterrolebindings': rbacBinding,
};
