/**
 * Kubernetes' protobuf wire form as the simulated API server reads and writes it: the `k8s\0` + runtime.Unknown
 * envelope, the generated messages of kubernetes/api, Go's zero-value rules and the apimachinery types whose JSON
 * is not their message.
 */
import { describe, expect, it } from 'vitest';
import { type ApiError } from '../../../src/testbed/cluster/apiserver/errors.js';
import { negotiateResponse } from '../../../src/testbed/cluster/apiserver/http/negotiation.js';
import {
  decodeKubeProtobuf,
  encodeKubeProtobuf,
  messageType,
  ProtobufDecodeError,
} from '../../../src/testbed/cluster/apiserver/protobuf/kube-protobuf.js';
import { formatGoDuration, parseGoDuration } from '../../../src/testbed/cluster/apiserver/protobuf/special-types.js';

/** The DeleteOptions body Helm 3.17 (client-go 0.32) sends when it deletes a release Secret, byte for byte. */
const helmDeleteOptions = Buffer.from('6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200', 'hex');

function roundTrip(object: Record<string, unknown>): Record<string, unknown> {
  const encoded = encodeKubeProtobuf(object);
  if (!encoded) throw new Error(`no protobuf form for ${String(object.kind)}`);
  return decodeKubeProtobuf(encoded).object;
}

describe('the protobuf envelope', () => {
  it("decodes Helm's DeleteOptions and encodes it back to the same bytes", () => {
    expect(decodeKubeProtobuf(helmDeleteOptions)).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      object: { apiVersion: 'v1', kind: 'DeleteOptions' },
    });
    expect(encodeKubeProtobuf({ apiVersion: 'v1', kind: 'DeleteOptions' })?.equals(helmDeleteOptions)).toBe(true);
  });

  it('refuses a body without the k8s\\0 magic, and a kind the API group does not have', () => {
    expect(() => decodeKubeProtobuf(Buffer.from('{"kind":"Secret"}'))).toThrow(ProtobufDecodeError);
    const unknownKind = encodeKubeProtobuf({ apiVersion: 'v1', kind: 'Secret' }) as Buffer;
    const renamed = Buffer.from(unknownKind.toString('latin1').replace('Secret', 'Sekret'), 'latin1');
    expect(() => decodeKubeProtobuf(renamed)).toThrow('no kind "Sekret" is registered for version "v1"');
  });

  it('has messages for built-in kinds and meta kinds in any group version; none for custom resources or Tables', () => {
    expect(messageType('v1', 'Secret')?.fullName).toBe('.k8s.io.api.core.v1.Secret');
    expect(messageType('apps/v1', 'Deployment')?.fullName).toBe('.k8s.io.api.apps.v1.Deployment');
    expect(messageType('rbac.authorization.k8s.io/v1', 'ClusterRole')?.fullName).toBe('.k8s.io.api.rbac.v1.ClusterRole');
    expect(messageType('apps/v1', 'DeleteOptions')?.fullName).toBe('.k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    expect(messageType('karpenter.sh/v1', 'NodePool')).toBeUndefined();
    expect(messageType('meta.k8s.io/v1', 'Table')).toBeUndefined();
  });
});

describe('objects through protobuf, as Go decodes and prints them', () => {
  it('a Secret keeps its bytes, labels, type and a pointer set to false', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'sh.helm.release.v1.r.v1',
        namespace: 'karpenter',
        labels: { owner: 'helm' },
        creationTimestamp: '2026-11-27T10:00:00Z',
      },
      immutable: false,
      data: { release: Buffer.from([0, 1, 2, 255]).toString('base64') },
      type: 'helm.sh/release.v1',
    };
    expect(roundTrip(secret)).toEqual(secret);
  });

  it('a zero pointer survives (replicas: 0), a zero omitempty value does not (paused: false, generateName: "")', () => {
    const decoded = roundTrip({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'inflate', generateName: '' },
      spec: { replicas: 0, paused: false, selector: { matchLabels: { app: 'inflate' } }, template: {} },
    });
    expect(decoded.metadata).toEqual({ name: 'inflate' });
    expect(decoded.spec).toEqual({ replicas: 0, selector: { matchLabels: { app: 'inflate' } }, template: {} });
  });

  it('quantities, int-or-string, inline structs, micro times and embedded JSON come back in their JSON form', () => {
    const pod = roundTrip({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [
          {
            name: 'app',
            resources: { requests: { cpu: '1500m', memory: '1Gi' } },
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            readinessProbe: { httpGet: { port: 'http', path: '/readyz' } },
          },
        ],
      },
    });
    const container = (pod.spec as { containers: Array<Record<string, unknown>> }).containers[0];
    expect(container?.ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(container?.resources).toEqual({ requests: { cpu: '1500m', memory: '1Gi' } });
    expect(container?.readinessProbe).toEqual({ httpGet: { port: 'http', path: '/readyz' } });
    const lease = roundTrip({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { renewTime: '2026-11-27T10:00:00.123456Z' },
    });
    expect(lease.spec).toEqual({ renewTime: '2026-11-27T10:00:00.123456Z' });
    const revision = roundTrip({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r' },
      data: { spec: { a: [1] } },
      revision: 3,
    });
    expect(revision.data).toEqual({ spec: { a: [1] } });
  });

  it("Go durations print as Go's time.Duration does", () => {
    expect([0, 1.5e9, 3.6e12 + 6e10 + 1e9, 2.5e8, 1500].map(formatGoDuration)).toEqual(['0s', '1.5s', '1h1m1s', '250ms', '1.5µs']);
    expect(['1h30m', '250ms', '-1.5s', '0'].map(parseGoDuration)).toEqual([5.4e12, 2.5e8, -1.5e9, 0]);
  });
});

describe('response content negotiation', () => {
  const typedClient = 'application/vnd.kubernetes.protobuf,application/json';

  it("answers client-go's typed clients in protobuf for built-in kinds, in JSON for custom resources", () => {
    expect(negotiateResponse(typedClient, () => true)).toBe('protobuf');
    expect(negotiateResponse(typedClient, () => false)).toBe('json');
  });

  it("follows the client's order and qualities; no header and */* mean JSON", () => {
    expect(negotiateResponse('application/json, application/vnd.kubernetes.protobuf', () => true)).toBe('json');
    expect(negotiateResponse('application/vnd.kubernetes.protobuf;q=0.5, application/json', () => true)).toBe('json');
    expect(negotiateResponse(undefined, () => true)).toBe('json');
    expect(negotiateResponse('*/*', () => true)).toBe('json');
    expect(negotiateResponse('application/json;as=Table;v=v1;g=meta.k8s.io,application/json', () => true)).toBe('json');
  });

  it('never looks the kind up (loading the messages) for a client that does not accept protobuf', () => {
    const untouched = () => {
      throw new Error('protobuf looked up');
    };
    expect(negotiateResponse('application/json', untouched)).toBe('json');
    expect(negotiateResponse(undefined, untouched)).toBe('json');
  });

  it('answers 406 NotAcceptable, naming what it can write, when nothing the client accepts can be written', () => {
    const refusal = (() => {
      try {
        negotiateResponse('application/vnd.kubernetes.protobuf', () => false);
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('accepted');
    })();
    expect(refusal.code).toBe(406);
    expect(refusal.reason).toBe('NotAcceptable');
    expect(refusal.message).toBe('only the following media types are accepted: application/json, application/yaml');
  });
});
