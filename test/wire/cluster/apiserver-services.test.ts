/**
 * Services get their cluster IP from the API server, as kube-apiserver's Service registry allocates it: what
 * `helm install --wait` and `kubectl get svc` read ("Service does not have cluster IP address" otherwise).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { rawRequest } from './apiserver-fixtures.js';

let server: ApiServer;
const services = () => `${server.url}/api/v1/namespaces/default/services`;

function service(name: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { ports: [{ name: 'https', port: 8443 }], ...spec },
  });
}

function inServiceCidr(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && (b ?? 0) >= 96 && (b ?? 0) < 112;
}

beforeAll(async () => {
  server = await startApiServer();
});

afterAll(() => server.close());

describe('Service cluster IPs', () => {
  it('a new Service gets a free IP of the service CIDR and the registry defaults', async () => {
    const first = await rawRequest(services(), 'POST', service('webhook'));
    const second = await rawRequest(services(), 'POST', service('extender'));
    expect(first.status).toBe(201);
    const spec = first.json.spec as Record<string, unknown>;
    expect(inServiceCidr(String(spec.clusterIP))).toBe(true);
    expect(spec).toMatchObject({
      clusterIPs: [spec.clusterIP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', port: 8443, protocol: 'TCP', targetPort: 8443 }],
    });
    expect((second.json.spec as Record<string, unknown>).clusterIP).not.toBe(spec.clusterIP);
  });

  it('headless stays None; a named IP is honoured once, then refused as allocated', async () => {
    const headless = await rawRequest(services(), 'POST', service('headless', { clusterIP: 'None' }));
    expect(headless.json.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] });
    const named = await rawRequest(services(), 'POST', service('dns', { clusterIP: '10.96.0.10' }));
    expect(named.json.spec).toMatchObject({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] });
    const taken = await rawRequest(services(), 'POST', service('dns-2', { clusterIP: '10.96.0.10' }));
    expect(taken.status).toBe(422);
    expect(taken.json.message).toBe(
      'Service "dns-2" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    const outside = await rawRequest(services(), 'POST', service('outside', { clusterIP: '192.168.0.1' }));
    expect(outside.status).toBe(422);
    expect(outside.json.message).toContain('The range of valid IPs is 10.96.0.0/12');
  });

  it('an update that omits the IP keeps it; one that changes it is refused', async () => {
    const created = await rawRequest(services(), 'POST', service('kept'));
    const ip = (created.json.spec as { clusterIP: string }).clusterIP;
    const replaced = await rawRequest(`${services()}/kept`, 'PUT', service('kept', { ports: [{ name: 'https', port: 9443 }] }));
    expect(replaced.status).toBe(200);
    expect(replaced.json.spec).toMatchObject({ clusterIP: ip, clusterIPs: [ip], ports: [{ port: 9443 }] });
    const changed = await rawRequest(`${services()}/kept`, 'PUT', service('kept', { clusterIP: '10.96.0.77' }));
    expect(changed.status).toBe(422);
    expect(changed.json.message).toBe(
      'Service "kept" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.77": may not change once set',
    );
  });
});
