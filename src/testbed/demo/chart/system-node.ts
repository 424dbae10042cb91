/**
 * Where the release's pod runs, as on a real cluster: a node of the cluster's own (non-Karpenter) pool, tainted for
 * critical add-ons, which the chart's pod tolerates by the `--set tolerations…` the demo installs with. Without it the
 * pod would stay Pending for ever, and the scheduler's status writes on it would feed the provisioner pod events no
 * real cluster sends. The demo is that node's kubelet for the one pod it runs in process: it reports it Running.
 */
import { CoreV1Api, type KubeConfig, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { ChartDemoError } from './errors.js';

export const SystemNodeName = 'system-0';
export const SystemTaint = { key: 'CriticalAddonsOnly', value: 'true', effect: 'NoSchedule' } as const;

/** The tolerations of the demo's `--set` line: exactly the system node's taint. */
export const systemTolerationSet = [
  `tolerations[0].key=${SystemTaint.key}`,
  'tolerations[0].operator=Exists',
  `tolerations[0].effect=${SystemTaint.effect}`,
];

export async function registerSystemNode(kubeConfig: KubeConfig, now: Date): Promise<void> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: SystemNodeName,
      labels: { 'kubernetes.io/hostname': SystemNodeName, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
    },
    spec: { taints: [{ ...SystemTaint }] },
  };
  const created = await api.createNode({ body: node });
  const resources = { cpu: '4', memory: '8Gi', pods: '110' };
  await api.replaceNodeStatus({
    name: SystemNodeName,
    body: {
      ...created,
      status: {
        capacity: resources,
        allocatable: resources,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
        nodeInfo: {
          architecture: 'amd64',
          operatingSystem: 'linux',
          kubeletVersion: 'v1.33.0',
          kubeProxyVersion: 'v1.33.0',
          containerRuntimeVersion: 'containerd://2.0.0',
          kernelVersion: '6.8.0',
          osImage: 'Ubuntu 24.04 LTS',
          bootID: SystemNodeName,
          machineID: SystemNodeName,
          systemUUID: SystemNodeName,
        },
      },
    },
  });
}

/** Waits for the scheduler to bind the pod to the system node, then reports its container running and ready. */
export async function reportPodRunning(kubeConfig: KubeConfig, pod: { namespace: string; name: string }, timeoutMs: number): Promise<void> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutMs;
  let current: V1Pod = await api.readNamespacedPod(pod);
  while (!current.spec?.nodeName) {
    if (Date.now() > deadline)
      throw new ChartDemoError(
        `pod ${pod.namespace}/${pod.name} was not scheduled on ${SystemNodeName}: ${JSON.stringify(current.status?.conditions ?? [])}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await api.readNamespacedPod(pod);
  }
  const now = new Date();
  const container = current.spec.containers[0];
  await api.replaceNamespacedPodStatus({
    ...pod,
    body: {
      ...current,
      status: {
        ...current.status,
        phase: 'Running',
        podIP: '127.0.0.1',
        hostIP: '127.0.0.1',
        startTime: now,
        conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
          type,
          status: 'True',
          lastTransitionTime: now,
        })),
        containerStatuses: [
          {
            name: container?.name ?? 'controller',
            image: container?.image ?? '',
            imageID: '',
            ready: true,
            restartCount: 0,
            started: true,
            state: { running: { startedAt: now } },
          },
        ],
      },
    },
  });
}
