import { afterEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { writeKubeconfig } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';

let server: ApiServer | undefined;
let remove: (() => Promise<void>) | undefined;

afterEach(async () => {
  await remove?.();
  await server?.close();
  server = undefined;
  remove = undefined;
});

describe('the kubeconfig file the test bed writes', () => {
  it('loads in @kubernetes/client-node (what `karpenter-eu run --kubeconfig` does) and reaches the simulated API server', async () => {
    server = await startApiServer({});
    const written = await writeKubeconfig(server.url);
    remove = written.remove;
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(written.path);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'from-file' } } });
    const names = (await core.listNamespace()).items.map((n) => n.metadata?.name);
    expect(names).toContain('from-file');
  });
});
