// The simulated API server's token authentication and audit log: each write is recorded with the user its
// bearer token names, its arrival time and its answer; reads are not recorded.
import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { kubeConfigFor } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';
import { FakeClock } from '../../../src/util/clock.js';

let server: ApiServer;
const clock = new FakeClock(Date.UTC(2026, 0, 1));

beforeEach(async () => {
  server = await startApiServer({ clock, tokens: { 'token-r1': 'replica-1' } });
});

afterEach(async () => {
  await server.close();
});

function clientWithToken(token: string): CoreV1Api {
  const kc = kubeConfigFor(server.url);
  kc.users[0] = { name: 'admin', token } as (typeof kc.users)[0];
  return kc.makeApiClient(CoreV1Api);
}

describe('audit log', () => {
  it('records each write with its token’s user, arrival time and status code', async () => {
    const replica = clientWithToken('token-r1');
    const body = { metadata: { name: 'a' } };
    await replica.createNamespacedConfigMap({ namespace: 'default', body });
    await replica.createNamespacedConfigMap({ namespace: 'default', body }).catch(() => undefined);
    await server.kubeConfig.makeApiClient(CoreV1Api).deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await replica.listNamespacedConfigMap({ namespace: 'default' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.audit.records()).toEqual([
      { receivedAt: clock.now(), method: 'POST', path: '/api/v1/namespaces/default/configmaps', username: 'replica-1', code: 201 },
      { receivedAt: clock.now(), method: 'POST', path: '/api/v1/namespaces/default/configmaps', username: 'replica-1', code: 409 },
      {
        receivedAt: clock.now(),
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/a',
        username: 'kubernetes-admin',
        code: 200,
      },
    ]);
  });
});
