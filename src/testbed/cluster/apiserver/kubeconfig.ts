/** A kubeconfig for the simulated API server: in memory for client-node, on disk for kubectl. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

const contextName = 'karpenter-eu-sim';

export function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  // client-node 1.4 refuses plain http unless skipTLSVerify is set.
  kc.loadFromOptions({
    clusters: [{ name: contextName, server: url, skipTLSVerify: true }],
    users: [{ name: 'admin', token: 'simulated' }],
    contexts: [{ name: contextName, cluster: contextName, user: 'admin', namespace: 'default' }],
    currentContext: contextName,
  });
  return kc;
}

export function kubeconfigYaml(url: string, token = 'simulated'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    // Plain http on loopback: client-node 1.4 refuses it unless TLS verification is marked skipped (kubectl ignores it).
    clusters: [{ name: contextName, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'admin', user: { token } }],
    contexts: [{ name: contextName, context: { cluster: contextName, user: 'admin', namespace: 'default' } }],
    'current-context': contextName,
  });
}

/**
 * Writes the kubeconfig to `path`, or to a fresh temp dir; returns the path and how to remove it. `token` names
 * the user to a server given it in `tokens`.
 */
export async function writeKubeconfig(url: string, path?: string, token?: string): Promise<{ path: string; remove: () => Promise<void> }> {
  if (path) {
    await writeFile(path, kubeconfigYaml(url, token), { mode: 0o600 });
    return { path, remove: () => rm(path, { force: true }) };
  }
  const dir = await mkdtemp(join(tmpdir(), 'karpenter-eu-apiserver-'));
  const file = join(dir, 'kubeconfig');
  await writeFile(file, kubeconfigYaml(url, token), { mode: 0o600 });
  return { path: file, remove: () => rm(dir, { recursive: true, force: true }) };
}
