// Seed 000 (the Scaleway GPU controller): its Secret, Provisioner and pod as written, through `convert`, with
// only the placeholders convert names filled in, then `validate` offline and applied to the simulated cluster
// with the service running against the Scaleway emulator. Offline and live give the same verdicts; the pod
// ends Running on an L4 and a pod that asks for no GPU stays off that node.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type KubernetesObject, KubernetesObjectApi, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { main } from '../../../src/cli/main.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { apiErrorMessage } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { fillPlaceholders } from '../../fixtures/seeds/placeholders.js';

const seed000AsWritten = 'test/fixtures/seeds/000-scaleway-gpu-controller-as-written.yaml';
let env: DemoEnvironment;
let dir: string;

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr };
}

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 600): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

interface Verdict {
  object: string;
  allowed: boolean;
  message: string;
}

const key = (o: KubernetesObject): string => `${String(o.kind)}/${String(o.metadata?.name)}`;

/** `validate -o json` over the objects: the verdict of each object admission reviews. */
async function offline(objects: readonly KubernetesObject[]): Promise<Verdict[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, objects.map((o) => JSON.stringify(o)).join('\n---\n'));
  const { stdout } = await cli(['validate', '-f', file, '-o', 'json']);
  return (JSON.parse(stdout) as { kind: string; name: string; allowed: boolean; message: string }[]).map((e) => ({
    object: `${e.kind}/${e.name}`,
    allowed: e.allowed,
    message: e.message,
  }));
}

/** Each object created on the simulated cluster, in order: admitted, or the webhook's denial as kubectl prints it. */
async function live(objects: readonly KubernetesObject[]): Promise<Verdict[]> {
  const api = KubernetesObjectApi.makeApiClient(env.cluster.kubeConfig);
  const verdicts: Verdict[] = [];
  for (const object of objects) {
    const verdict = await api.create(object).then(
      () => ({ allowed: true, message: '' }),
      (error: unknown) => ({ allowed: false, message: apiErrorMessage(error) }),
    );
    verdicts.push({ object: key(object), ...verdict });
  }
  return verdicts;
}

const reviewed = (verdicts: readonly Verdict[], offlineOnes: readonly Verdict[]): Verdict[] =>
  verdicts.filter((v) => offlineOnes.some((o) => o.object === v.object));

/** The webhook's text around the same reason: `admission webhook "…" denied the request: <reason>`. */
const reason = (message: string): string => message.replace(/^admission webhook "[^"]+" denied the request: /, '');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seed000-'));
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
});

afterAll(async () => {
  await env?.close();
  rmSync(dir, { recursive: true, force: true });
});

// In order: the second test adds a pool of its own beside the first's, whose nodes the first test's pod must not meet.
describe('seed 000 migrated with convert onto the simulated cluster', { shuffle: false }, () => {
  it('same verdicts offline and live, the pod Running on an L4, a pod asking for no GPU kept off it', async () => {
    const c = env.scaleway?.credentials;
    if (!c) throw new Error('the Scaleway emulator is not running');
    const converted = await cli(['convert', '-f', seed000AsWritten]);
    expect(converted.code, converted.stderr).toBe(0);
    const filled = fillPlaceholders(converted.stdout, converted.stderr, {
      '<VOTRE_SCW_ACCESS_KEY>': c.accessKey,
      '<VOTRE_SCW_SECRET_KEY>': c.secretKey,
      '<VOTRE_SCW_DEFAULT_PROJECT_ID>': c.projectId,
      '<bootstrap-token>': 'abcdef.0123456789abcdef',
      'https://<cluster-endpoint>': 'https://k8s.example.internal:6443',
    });
    const objects = parseAllDocuments(filled).map((d) => d.toJS() as KubernetesObject);
    expect(objects.map(key)).toEqual([
      'Secret/scaleway-gpu-credentials',
      'Secret/karpenter-join-token',
      'ScalewayNodeClass/scaleway-gpu',
      'NodePool/scaleway-gpu',
      'Pod/gpu-test',
    ]);
    const offlineVerdicts = await offline(objects);
    const liveVerdicts = await live(objects);
    expect(offlineVerdicts.every((v) => v.allowed)).toBe(true);
    expect(reviewed(liveVerdicts, offlineVerdicts)).toEqual(offlineVerdicts);
    expect(liveVerdicts.every((v) => v.allowed)).toBe(true);

    // What convert no longer writes, and the seed's pod as written: refused offline and live, for the same reason.
    const [seedSecret, , seedPod] = parseAllDocuments(readFileSync(seed000AsWritten, 'utf8')).map((d) => d.toJS() as KubernetesObject);
    const nodeClass = objects[2] as KubernetesObject & { spec: Record<string, unknown> };
    const misplaced = {
      ...nodeClass,
      metadata: { name: 'misplaced' },
      spec: { ...nodeClass.spec, credentialsSecretRef: { name: seedSecret?.metadata?.name, namespace: 'default' } },
    };
    const legacyPod = { ...(seedPod as KubernetesObject), metadata: { name: 'gpu-legacy', namespace: 'default' } };
    const refusedOffline = await offline([misplaced, legacyPod]);
    const refusedLive = await live([misplaced, legacyPod]);
    expect(refusedOffline.map((v) => v.allowed)).toEqual([false, false]);
    expect(refusedLive.map((v) => ({ ...v, message: reason(v.message) }))).toEqual(refusedOffline);
    expect(refusedOffline[1]?.message).toContain(
      'instead of `karpenter.sh/instance-type: l4` write `karpenter-eu.io/instance-gpu-name: l4`',
    );

    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    const gpuPod = await eventually(async () => {
      const pod = await core.readNamespacedPod({ name: 'gpu-test', namespace: 'default' });
      return pod.status?.phase === 'Running' ? pod : undefined;
    }, 'gpu-test Running');
    const node = await core.readNode({ name: gpuPod.spec?.nodeName as string });
    expect(node.metadata?.labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'L4-1-24G',
      'karpenter-eu.io/instance-gpu-name': 'l4',
      'karpenter.sh/nodepool': 'scaleway-gpu',
    });

    const web: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    };
    await core.createNamespacedPod({ namespace: 'default', body: web });
    const unschedulable = await eventually(async () => {
      const pod = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
      const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
      return scheduled?.status === 'False' ? { pod, scheduled } : undefined;
    }, 'web refused by the scheduler');
    expect(unschedulable.pod.spec?.nodeName).toBeUndefined();
    expect(unschedulable.scheduled.message).toContain('untolerated taint {nvidia.com/gpu: true}');
  });

  it('a projectId filled in wrong is corrected while its NodeClaim has not launched, and the pod then runs', async () => {
    const c = env.scaleway?.credentials;
    if (!c) throw new Error('the Scaleway emulator is not running');
    const converted = await cli(['convert', '-f', seed000AsWritten]);
    const wrongProject = '00000000-0000-4000-8000-000000000000';
    const objects = parseAllDocuments(
      fillPlaceholders(converted.stdout, converted.stderr, {
        '<VOTRE_SCW_ACCESS_KEY>': c.accessKey,
        '<VOTRE_SCW_SECRET_KEY>': c.secretKey,
        '<VOTRE_SCW_DEFAULT_PROJECT_ID>': wrongProject,
        '<bootstrap-token>': 'abcdef.0123456789abcdef',
        'https://<cluster-endpoint>': 'https://k8s.example.internal:6443',
      }),
    ).map((d) => d.toJS() as KubernetesObject & { spec: Record<string, unknown> });
    // A second class, pool and pod of their own (the first test's pool is already there): a label keeps them together.
    const nodeClass = { ...objects[2], metadata: { name: 'typo' } } as KubernetesObject & { spec: Record<string, unknown> };
    const pool = structuredClone(objects[3]) as KubernetesObject & {
      spec: { template: { metadata?: unknown; spec: Record<string, unknown> } };
    };
    pool.metadata = { name: 'typo' };
    pool.spec.template.metadata = { labels: { migration: 'typo' } };
    pool.spec.template.spec.nodeClassRef = { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'typo' };
    const pod = structuredClone(objects[4]) as KubernetesObject & { spec: { nodeSelector: Record<string, string> } };
    pod.metadata = { name: 'gpu-typo', namespace: 'default' };
    pod.spec.nodeSelector = { ...pod.spec.nodeSelector, migration: 'typo' };
    // The Secrets as convert printed them (the first test may have created them already).
    const secrets = (await live(objects.slice(0, 2))).filter((v) => !v.allowed);
    for (const refused of secrets) expect(refused.message).toContain('already exists');
    expect((await live([nodeClass, pool, pod])).every((v) => v.allowed)).toBe(true);

    const api = KubernetesObjectApi.makeApiClient(env.cluster.kubeConfig);
    const unlaunched = await eventually(async () => {
      const claims = (await api.list('karpenter.sh/v1', 'NodeClaim')).items as (KubernetesObject & { status?: { providerID?: string } })[];
      return claims.find((claim) => claim.metadata?.labels?.['karpenter.sh/nodepool'] === 'typo' && !claim.status?.providerID);
    }, 'a NodeClaim of the typo pool, not launched');
    expect(unlaunched.metadata?.name).toBeTruthy();
    const corrected = await api
      .patch(
        {
          apiVersion: 'karpenter.scaleway.sh/v1alpha1',
          kind: 'ScalewayNodeClass',
          metadata: { name: 'typo' },
          spec: { projectId: c.projectId },
        },
        undefined,
        undefined,
        undefined,
        undefined,
        'application/merge-patch+json',
      )
      .then(
        () => '',
        (error: unknown) => apiErrorMessage(error),
      );
    expect(corrected).toBe('');

    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    const running = await eventually(async () => {
      const current = await core.readNamespacedPod({ name: 'gpu-typo', namespace: 'default' });
      return current.status?.phase === 'Running' ? current : undefined;
    }, 'gpu-typo Running');
    const node = await core.readNode({ name: running.spec?.nodeName as string });
    expect(node.metadata?.labels).toMatchObject({ 'karpenter.sh/nodepool': 'typo', 'node.kubernetes.io/instance-type': 'L4-1-24G' });
  }, 120_000);
});
