import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import { fillPlaceholders, seed000Fills } from '../fixtures/seeds/placeholders.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'convert-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seed000 = 'test/fixtures/seeds/000-scaleway-gpu-controller.yaml';
const seed000AsWritten = 'test/fixtures/seeds/000-scaleway-gpu-controller-as-written.yaml';

/** The output's documents by kind/name. */
function byKey(stdout: string): Map<string, Record<string, unknown> & { spec: Record<string, unknown> }> {
  const docs = stdout.split('\n---\n').map((d) => parse(d) as Record<string, unknown> & { spec: Record<string, unknown> });
  return new Map(docs.map((d) => [`${String(d.kind)}/${String((d.metadata as { name: string }).name)}`, d]));
}

describe('karpenter-eu convert', () => {
  it('seed 000 as written: the Secrets where and as NodeClasses need them, a GPU-only NodePool, the pod rewritten, each placeholder named', async () => {
    const converted = await run(['convert', '-f', seed000AsWritten]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stderr.split('\n').filter((l) => l.startsWith('placeholder: '))).toEqual([
      'placeholder: Secret karpenter/scaleway-gpu-credentials stringData.SCW_ACCESS_KEY: "<VOTRE_SCW_ACCESS_KEY>"',
      'placeholder: Secret karpenter/scaleway-gpu-credentials stringData.SCW_SECRET_KEY: "<VOTRE_SCW_SECRET_KEY>"',
      'placeholder: Secret karpenter/karpenter-join-token stringData.token: "<bootstrap-token>"',
      'placeholder: ScalewayNodeClass scaleway-gpu spec.projectId: "<VOTRE_SCW_DEFAULT_PROJECT_ID>"',
      'placeholder: ScalewayNodeClass scaleway-gpu spec.join.apiServerEndpoint: "https://<cluster-endpoint>"',
    ]);
    const docs = byKey(converted.stdout);
    const label = { 'karpenter-eu.io/nodeclass-secret': 'true' };
    expect(docs.get('Secret/scaleway-gpu-credentials')).toMatchObject({
      metadata: { namespace: 'karpenter', labels: label },
      stringData: { SCW_ACCESS_KEY: '<VOTRE_SCW_ACCESS_KEY>', SCW_SECRET_KEY: '<VOTRE_SCW_SECRET_KEY>' },
    });
    expect(docs.get('Secret/karpenter-join-token')).toMatchObject({ metadata: { namespace: 'karpenter', labels: label } });
    expect(docs.get('ScalewayNodeClass/scaleway-gpu')?.spec).toMatchObject({
      credentialsSecretRef: { name: 'scaleway-gpu-credentials', namespace: 'karpenter' },
      join: { tokenSecretRef: { name: 'karpenter-join-token', namespace: 'karpenter', key: 'token' } },
    });
    const template = (docs.get('NodePool/scaleway-gpu')?.spec.template as { spec: Record<string, unknown> }).spec;
    expect(template.requirements).toContainEqual({ key: 'karpenter-eu.io/instance-gpu-name', operator: 'Exists' });
    expect(template.taints).toEqual([{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    const pod = docs.get('Pod/gpu-test');
    expect(pod?.spec.nodeSelector).toEqual({ 'karpenter-eu.io/instance-gpu-name': 'l4' });
    expect(pod?.spec.tolerations).toContainEqual({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
  });

  it('seed 000 as written, only the placeholders convert names filled: validate admits every object and plan puts the pod on an L4, no other pod', async () => {
    const converted = await run(['convert', '-f', seed000AsWritten]);
    const out = join(dir, 'filled.yaml');
    writeFileSync(out, fillPlaceholders(converted.stdout, converted.stderr, seed000Fills));
    const validated = await run(['validate', '-f', out, '-o', 'json']);
    const entries = JSON.parse(validated.stdout) as { kind: string; name: string; allowed: boolean; message: string; warnings: string[] }[];
    expect(entries.map((e) => `${e.kind}/${e.name}:${e.allowed}:${e.message}`)).toEqual([
      'ScalewayNodeClass/scaleway-gpu:true:',
      'NodePool/scaleway-gpu:true:',
      'Pod/gpu-test:true:',
    ]);
    expect(validated.code).toBe(0);

    const web = join(dir, 'web.yaml');
    writeFileSync(
      web,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]}\n',
    );
    const planned = await run(['plan', '-f', out, '-f', web, '-o', 'json']);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      nodeClaims: { nodePool: string; instanceType: string; zone: string; pods: string[] }[];
      unschedulable: { pod: string }[];
    };
    expect(plan.nodeClaims).toEqual([
      expect.objectContaining({ nodePool: 'scaleway-gpu', instanceType: 'L4-1-24G', zone: 'fr-par-2', pods: ['default/gpu-test'] }),
    ]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/web']);
  });

  it('comments every field it changed: capacity type, GPU-only, limits, disruption, the replaced provider, the Secret it moved', async () => {
    const { stdout } = await run(['convert', '-f', seed000]);
    expect(stdout).toContain('# was In [scaleway-gpu]: OVHcloud, Scaleway and Outscale sell on-demand only');
    expect(stdout).toContain('# from limits.resources');
    expect(stdout).toContain('# from ttlSecondsAfterEmpty: 30');
    expect(stdout).toContain('# replaces spec.provider');
    expect(stdout).toContain('# SCW_DEFAULT_PROJECT_ID of Secret default/scaleway-credentials');
    expect(stdout).toContain('moved from default/scaleway-credentials');
    expect(stdout).toContain("the controller's <cluster-endpoint> placeholder: give --api-server");
    const docs = byKey(stdout);
    expect(docs.get('ScalewayNodeClass/scaleway-gpu')?.spec).toMatchObject({
      projectId: '7d2e9a41-5b3c-4e8f-a1d6-0c9b8a7f6e5d',
      zones: ['fr-par-1', 'fr-par-2', 'fr-par-3'],
    });
    expect(docs.get('NodePool/scaleway-gpu')?.spec).toMatchObject({
      limits: { cpu: 1000, memory: '1000Gi' },
      disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s' },
    });
  });

  it('maps the other v1alpha5 fields and the OVHcloud provider class, and says what it dropped', async () => {
    const input = join(dir, 'ovh.yaml');
    writeFileSync(
      input,
      `apiVersion: karpenter.ovhcloud.sh/v1alpha1
kind: OVHNodeClass
metadata: {name: default}
spec: {serviceName: "0123456789abcdef0123456789abcdef", region: GRA11, credentialsSecretRef: {name: ovh, namespace: karpenter}, flavorFilter: "b3-*"}
---
apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata: {name: general}
spec:
  providerRef: {name: default}
  consolidation: {enabled: true}
  ttlSecondsUntilExpired: 604800
  labels: {team: web}
  taints: [{key: dedicated, value: web, effect: NoSchedule}]
  requirements:
    - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}
    - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
    - {key: node.kubernetes.io/instance-type, operator: In, values: [b3-8, b3-16]}
  kubeletConfiguration: {maxPods: 50}
`,
    );
    const { code, stdout } = await run(['convert', '-f', input]);
    expect(code).toBe(0);
    const [nodeClass, pool] = stdout.split('\n---\n').map((d) => parse(d) as { spec: Record<string, unknown> });
    expect(nodeClass?.spec).toEqual({
      serviceName: '0123456789abcdef0123456789abcdef',
      region: 'GRA11',
      credentialsSecretRef: { name: 'ovh', namespace: 'karpenter' },
    });
    expect(stdout).toContain('dropped flavorFilter: "b3-*"');
    expect(pool?.spec).toMatchObject({
      template: {
        metadata: { labels: { team: 'web' } },
        spec: {
          nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
          expireAfter: '604800s',
          taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
          requirements: [
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
            { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['b3-8', 'b3-16'] },
          ],
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized' },
    });
    expect(stdout).toContain('dropped karpenter.k8s.aws/instance-family In [m5]');
    expect(stdout).toContain('dropped kubeletConfiguration');
    const original = await run(['validate', '-f', input]);
    expect(original.code).toBe(1);
    expect(original.stdout).toContain('Provisioner/general: denied: apiVersion: Unsupported value: "karpenter.sh/v1alpha5 Provisioner"');
    expect(original.stdout).toContain('karpenter-eu convert -f FILE');
  });

  it('exits 2 naming the problem when there is nothing to convert or the URL is not https', async () => {
    const nothing = await run(['convert', '-f', 'test/fixtures/seeds/003-outscale-provider-howto.yaml']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('convert: nothing to convert');
    const badUrl = await run(['convert', '-f', seed000, '--api-server', 'http://x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--api-server "http://x" is not an https:// URL');
  });
});
