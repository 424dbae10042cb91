import { describe, it, expect } from 'vitest';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  containerRequests,
  firstHostPortConflict,
  podHostPorts,
  podRequests,
  podSchedulingRequests,
  podsSchedulingRequests,
} from '../../../../src/domain/pods/index.js';

const c = (requests: Record<string, string>, extra: Partial<V1Container> = {}): V1Container => ({
  name: 'c',
  resources: { requests },
  ...extra,
});
const sidecar = (requests: Record<string, string>): V1Container => c(requests, { restartPolicy: 'Always' });
const pod = (spec: Partial<NonNullable<V1Pod['spec']>>): V1Pod => ({ spec: { containers: [], ...spec } });

// Cases from kube-scheduler's resource.PodRequests tests, in ResourceList units (cpu millicores, memory bytes).
describe('podRequests', () => {
  it.each<[string, V1Pod, Record<string, number>]>([
    ['sums app containers', pod({ containers: [c({ cpu: '1', memory: '1Gi' }), c({ cpu: '500m' })] }), { cpu: 1500, memory: 2 ** 30 }],
    [
      'an init container larger than the app wins per resource',
      pod({ containers: [c({ cpu: '1', memory: '1Gi' })], initContainers: [c({ cpu: '2', memory: '512Mi' })] }),
      { cpu: 2000, memory: 2 ** 30 },
    ],
    [
      'init containers do not add up with each other',
      pod({ containers: [c({ cpu: '100m' })], initContainers: [c({ cpu: '1' }), c({ cpu: '2' })] }),
      { cpu: 2000 },
    ],
    [
      'a sidecar adds to the app containers',
      pod({ containers: [c({ cpu: '1' })], initContainers: [sidecar({ cpu: '500m' })] }),
      { cpu: 1500 },
    ],
    [
      'a classic init container after a sidecar runs alongside it',
      pod({ containers: [c({ cpu: '100m' })], initContainers: [sidecar({ cpu: '1' }), c({ cpu: '2' })] }),
      { cpu: 3000 },
    ],
    [
      'a classic init container before a sidecar does not',
      pod({ containers: [c({ cpu: '100m' })], initContainers: [c({ cpu: '2' }), sidecar({ cpu: '1' })] }),
      { cpu: 2000 },
    ],
    [
      'sidecars accumulate (kube-scheduler test "multiple restartable init containers")',
      pod({
        containers: [c({ cpu: '1' })],
        initContainers: [sidecar({ cpu: '1' }), c({ cpu: '5' }), sidecar({ cpu: '2' }), c({ cpu: '1' })],
      }),
      { cpu: 6000 },
    ],
    [
      'pod overhead is added',
      pod({ containers: [c({ cpu: '1', memory: '1Gi' })], overhead: { cpu: '250m', memory: '120Mi' } }),
      { cpu: 1250, memory: 2 ** 30 + 120 * 2 ** 20 },
    ],
    [
      'limits stand in for absent requests',
      pod({ containers: [{ name: 'l', resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1' } } }] }),
      { cpu: 1000, memory: 2 ** 30 },
    ],
    ['no containers, no requests', pod({}), {}],
  ])('%s', (_name, p, expected) => {
    expect(podRequests(p)).toEqual(expected);
  });

  it('adds one pods slot for scheduling, and sums several pods', () => {
    const p = pod({ containers: [c({ cpu: '1', 'nvidia.com/gpu': '1' })] });
    expect(podSchedulingRequests(p)).toEqual({ cpu: 1000, 'nvidia.com/gpu': 1, pods: 1 });
    expect(podsSchedulingRequests([p, p])).toEqual({ cpu: 2000, 'nvidia.com/gpu': 2, pods: 2 });
  });

  it('names the resource when a request is not a quantity', () => {
    expect(() => containerRequests(c({ memory: '1 GB' }))).toThrow(/resource "memory".*"1 GB"/);
  });
});

describe('podHostPorts', () => {
  const web = pod({
    containers: [
      {
        name: 'w',
        ports: [
          { containerPort: 80, hostPort: 8080 },
          { containerPort: 81 },
          { containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' },
        ],
      },
    ],
    initContainers: [
      { name: 'proxy', restartPolicy: 'Always', ports: [{ containerPort: 9000, hostPort: 9000 }] },
      { name: 'setup', ports: [{ containerPort: 7000, hostPort: 7000 }] },
    ],
  });
  it('lists host ports of containers and sidecars with defaults (0.0.0.0, TCP)', () => {
    expect(podHostPorts(web)).toEqual([
      { ip: '0.0.0.0', port: 8080, protocol: 'TCP' },
      { ip: '10.0.0.1', port: 53, protocol: 'UDP' },
      { ip: '0.0.0.0', port: 9000, protocol: 'TCP' },
    ]);
  });
  it('clashes on the same port and protocol when an IP matches or is unspecified', () => {
    expect(firstHostPortConflict([{ ip: '10.0.0.2', port: 8080, protocol: 'TCP' }], podHostPorts(web))).toBeDefined();
    expect(firstHostPortConflict([{ ip: '10.0.0.2', port: 53, protocol: 'UDP' }], podHostPorts(web))).toBeUndefined();
    expect(firstHostPortConflict([{ ip: '10.0.0.1', port: 53, protocol: 'UDP' }], podHostPorts(web))).toBeDefined();
    expect(firstHostPortConflict([{ ip: '0.0.0.0', port: 8080, protocol: 'UDP' }], podHostPorts(web))).toBeUndefined();
  });
});
