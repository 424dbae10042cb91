/**
 * What the kubelet would hand the chart's container, read from the Deployment the release created: its args, its
 * environment with every `valueFrom` resolved from the stored Secrets, ConfigMaps and the pod's own fields, and its
 * Secret/ConfigMap/emptyDir volumes written as files. The files go under a temporary directory standing for the
 * container's `/`: only values that start with a mount path are rewritten, by prefixing that directory.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { V1Container, V1Deployment, V1EnvVar, V1ObjectFieldSelector, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { ChartDemoError } from './errors.js';

/** Reads a Secret's or ConfigMap's decoded data; undefined when it does not exist. */
export interface StoredData {
  secret(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  configMap(namespace: string, name: string): Promise<Record<string, string> | undefined>;
}

export interface PodIdentity {
  name: string;
  namespace: string;
  uid: string;
  serviceAccountName: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ContainerRun {
  container: V1Container;
  args: string[];
  env: Record<string, string>;
  /** The directory standing for the container's `/`. */
  root: string;
  /** mountPath → where its files are. */
  mounts: { mountPath: string; path: string }[];
}

export function onlyContainer(deployment: V1Deployment): V1Container {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1)
    throw new ChartDemoError(
      `Deployment ${deployment.metadata?.name}: the demo runs one container, the chart renders ${containers.length}`,
    );
  return containers[0] as V1Container;
}

function fieldValue(pod: PodIdentity, ref: V1ObjectFieldSelector, env: string): string {
  const path = ref.fieldPath;
  const indexed = /^metadata\.(labels|annotations)\['([^']+)'\]$/.exec(path);
  if (indexed) return (indexed[1] === 'labels' ? pod.labels : pod.annotations)[indexed[2] as string] ?? '';
  const fields: Record<string, string> = {
    'metadata.name': pod.name,
    'metadata.namespace': pod.namespace,
    'metadata.uid': pod.uid,
    'spec.serviceAccountName': pod.serviceAccountName,
    'status.podIP': '127.0.0.1',
    'status.hostIP': '127.0.0.1',
  };
  const value = fields[path];
  if (value === undefined)
    throw new ChartDemoError(`env ${env}: fieldRef.fieldPath "${path}" is not supported; accepted: ${Object.keys(fields).join(', ')}`);
  return value;
}

/** `$(NAME)` as the kubelet expands it: a variable defined earlier, `$$(…)` escapes, anything else stays as written. */
function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name: string | undefined) =>
    name === undefined ? '$' : (env[name] ?? match),
  );
}

async function keyOf(
  kind: 'Secret' | 'ConfigMap',
  data: Record<string, string> | undefined,
  ref: { name?: string; key: string; optional?: boolean },
  where: string,
): Promise<string | undefined> {
  if (data === undefined) {
    if (ref.optional) return undefined;
    throw new ChartDemoError(`env ${where}: ${kind.toLowerCase()} "${ref.name ?? ''}" not found`);
  }
  const value = data[ref.key];
  if (value === undefined && !ref.optional)
    throw new ChartDemoError(`env ${where}: couldn't find key ${ref.key} in ${kind} ${ref.name ?? ''}`);
  return value;
}

async function envValue(
  variable: V1EnvVar,
  pod: PodIdentity,
  stored: StoredData,
  env: Record<string, string>,
): Promise<string | undefined> {
  const from = variable.valueFrom;
  if (!from) return expand(variable.value ?? '', env);
  if (from.fieldRef) return fieldValue(pod, from.fieldRef, variable.name);
  if (from.secretKeyRef) {
    const ref = from.secretKeyRef;
    return keyOf('Secret', await stored.secret(pod.namespace, ref.name ?? ''), ref, `${variable.name}`);
  }
  if (from.configMapKeyRef) {
    const ref = from.configMapKeyRef;
    return keyOf('ConfigMap', await stored.configMap(pod.namespace, ref.name ?? ''), ref, `${variable.name}`);
  }
  throw new ChartDemoError(`env ${variable.name}: only value, fieldRef, secretKeyRef and configMapKeyRef are resolved by the demo`);
}

export async function resolveEnv(container: V1Container, pod: PodIdentity, stored: StoredData): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const name = source.secretRef?.name ?? source.configMapRef?.name ?? '';
    const data = source.secretRef ? await stored.secret(pod.namespace, name) : await stored.configMap(pod.namespace, name);
    const optional = source.secretRef?.optional ?? source.configMapRef?.optional ?? false;
    if (!data && !optional) throw new ChartDemoError(`envFrom: ${source.secretRef ? 'secret' : 'configmap'} "${name}" not found`);
    for (const [k, v] of Object.entries(data ?? {})) env[`${source.prefix ?? ''}${k}`] = v;
  }
  for (const variable of container.env ?? []) {
    const value = await envValue(variable, pod, stored, env);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

async function volumeFiles(volume: V1Volume, namespace: string, stored: StoredData): Promise<Record<string, string>> {
  const source = volume.secret ?? volume.configMap;
  if (volume.emptyDir) return {};
  if (!source) throw new ChartDemoError(`volume ${volume.name}: the demo materialises secret, configMap and emptyDir volumes only`);
  const kind = volume.secret ? 'secret' : 'configmap';
  const name = volume.secret?.secretName ?? volume.configMap?.name ?? '';
  const data = volume.secret ? await stored.secret(namespace, name) : await stored.configMap(namespace, name);
  if (!data) {
    if (source.optional) return {};
    throw new ChartDemoError(`MountVolume.SetUp failed for volume "${volume.name}": ${kind} "${name}" not found`);
  }
  if (!source.items) return data;
  const files: Record<string, string> = {};
  for (const item of source.items) {
    const value = data[item.key];
    if (value === undefined)
      throw new ChartDemoError(`MountVolume.SetUp failed for volume "${volume.name}": ${kind} "${name}" has no key ${item.key}`);
    files[item.path] = value;
  }
  return files;
}

async function mount(root: string, m: V1VolumeMount, volumes: V1Volume[], namespace: string, stored: StoredData): Promise<string> {
  const volume = volumes.find((v) => v.name === m.name);
  if (!volume) throw new ChartDemoError(`volumeMount ${m.mountPath}: no volume named ${m.name}`);
  if (!m.mountPath.startsWith('/')) throw new ChartDemoError(`volumeMount ${m.name}: mountPath "${m.mountPath}" is not absolute`);
  const files = await volumeFiles(volume, namespace, stored);
  const target = join(root, m.mountPath);
  if (m.subPath) {
    const content = files[m.subPath];
    if (content === undefined) throw new ChartDemoError(`volumeMount ${m.mountPath}: volume ${m.name} has no file ${m.subPath}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    return target;
  }
  mkdirSync(target, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    writeFileSync(join(target, file), content);
  }
  return target;
}

/** A path under one of the mounts, prefixed with the directory standing for `/`; any other value as it is. */
export function rewriteMountPaths(value: string, root: string, mounts: readonly { mountPath: string }[]): string {
  const under = mounts.some((m) => value === m.mountPath || value.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
  return under ? join(root, value) : value;
}

export async function prepareContainer(deployment: V1Deployment, pod: PodIdentity, stored: StoredData): Promise<ContainerRun> {
  const container = onlyContainer(deployment);
  const root = mkdtempSync(join(tmpdir(), 'karpenter-eu-pod-'));
  const volumes = deployment.spec?.template.spec?.volumes ?? [];
  const mounts: ContainerRun['mounts'] = [];
  for (const m of container.volumeMounts ?? [])
    mounts.push({ mountPath: m.mountPath, path: await mount(root, m, volumes, pod.namespace, stored) });
  const env = await resolveEnv(container, pod, stored);
  for (const [k, v] of Object.entries(env)) env[k] = rewriteMountPaths(v, root, mounts);
  const args = (container.args ?? []).map((a) => rewriteMountPaths(expand(a, env), root, mounts));
  return { container, args, env, root, mounts };
}
