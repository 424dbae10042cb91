/**
 * `validate` applies the Secret placement rule the live webhook applies (src/domain/secrets/secret-access.ts):
 * a NodeClass may name Secrets of the `karpenter` namespace only (the service's namespace in the guides), and a
 * Secret it names must carry the label karpenter-eu.io/nodeclass-secret=true before the service reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../src/cli/errors.js';
import { main } from '../../src/cli/main.js';

async function validate(yaml: string, env: CommandIO['env'] = {}): Promise<{ code: number; entries: Record<string, unknown>[] }> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  let stdout = '';
  const code = await main(['validate', '-f', file, '-o', 'json'], { stdout: (t) => (stdout += t), stderr: () => undefined, env });
  return { code, entries: JSON.parse(stdout) as Record<string, unknown>[] };
}

const dir = mkdtempSync(join(tmpdir(), 'validate-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nodeClass = (namespace: string) => `apiVersion: karpenter.scaleway.sh/v1alpha1
kind: ScalewayNodeClass
metadata: {name: gpu}
spec:
  projectId: 7d2e9a41-5b3c-4e8f-a1d6-0c9b8a7f6e5d
  zones: [fr-par-2]
  image: ubuntu_jammy_gpu_os_12
  credentialsSecretRef: {name: scw, namespace: ${namespace}}
  join:
    apiServerEndpoint: "https://10.0.0.1:6443"
    tokenSecretRef: {name: join, namespace: karpenter, key: token}
    caCertHashes: ["sha256:${'0'.repeat(64)}"]
`;
const secret = (name: string, labels: string) => `apiVersion: v1
kind: Secret
metadata: {name: ${name}, namespace: karpenter, labels: {${labels}}}
stringData: {token: abcdef.0123456789abcdef}
`;

describe('validate: Secret placement, as the live webhook decides it', () => {
  it('refuses a credentialsSecretRef outside the karpenter namespace, naming the accepted namespace', async () => {
    const { code, entries } = await validate(nodeClass('default'));
    expect(code).toBe(1);
    expect(entries[0]).toMatchObject({ kind: 'ScalewayNodeClass', allowed: false });
    expect(entries[0]?.message).toBe(
      'spec.credentialsSecretRef: Forbidden: Secret default/scw is in a namespace NodeClasses may not read from; accepted namespaces: "karpenter" (option --nodeclass-secret-namespaces)',
    );
  });

  it('takes the namespaces the service is given (NODECLASS_SECRET_NAMESPACES), as `run` does', async () => {
    const { entries } = await validate(nodeClass('default'), { NODECLASS_SECRET_NAMESPACES: 'karpenter,default' });
    expect(entries[0]).toMatchObject({ allowed: true });
  });

  it('warns about a named Secret of the files without the label, with the command that adds it', async () => {
    const { code, entries } = await validate(
      `${nodeClass('karpenter')}---\n${secret('scw', 'team: gpu')}---\n${secret('join', 'karpenter-eu.io/nodeclass-secret: "true"')}`,
    );
    expect(code).toBe(0);
    expect(entries[0]?.warnings).toEqual([
      'spec.credentialsSecretRef: Secret karpenter/scw does not carry the label karpenter-eu.io/nodeclass-secret=true that marks Secrets NodeClasses may read; add it (kubectl label secret -n karpenter scw karpenter-eu.io/nodeclass-secret=true) if this Secret is meant for NodeClasses',
    ]);
  });
});
