/**
 * The NodeClass a converted Provisioner points at. Scaleway (the GPU controller's users): project and region
 * from the controller's credentials Secret, which this project reads with the same keys. The existing
 * OVHcloud provider's OVHNodeClass has this project's group and kind: fields it knows are kept, others dropped.
 * AWS node templates: only `tags` and `userData` mean something elsewhere.
 */
import { OVHNodeClassSpecSchema } from '../../apis/v1alpha1/ovh-nodeclass.js';
import { asRecord, asString, field, nameOf } from '../admission/object-access.js';
import type { KubeObject } from '../admission/types.js';
import { DefaultNodeClassSecretNamespace } from '../secrets/secret-access.js';
import { credentialsSecret, JoinTokenSecret, joinTokenSecret, secretValue } from './secrets.js';
import type { ConvertNote, ConvertOptions } from './types.js';

/** Scaleway's GPU OS image label (Ubuntu with the NVIDIA drivers), what GPU instances boot. */
export const ScalewayGpuImage = 'ubuntu_jammy_gpu_os_12';
/** The keys of the controller's Secret the service reads for a ScalewayNodeClass (project and region go in the spec). */
const ScalewaySecretKeys = ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY'] as const;

export interface ConvertedClass {
  nodeClass: KubeObject;
  /** The Secrets it names, as they must be applied. */
  secrets: { object: KubeObject; notes: ConvertNote[] }[];
}

function credentialsNote(secret: KubeObject | undefined, projectId: string | undefined): string {
  const from = secret ? `${asString(field(secret, 'metadata', 'namespace')) ?? 'default'}/${nameOf(secret)}` : '';
  return projectId
    ? `SCW_DEFAULT_PROJECT_ID of Secret ${from}`
    : 'no Secret with SCW_DEFAULT_PROJECT_ID in the input: fill in the project UUID';
}

export function scalewayNodeClass(name: string, options: ConvertOptions, notes: ConvertNote[]): ConvertedClass {
  const secret = options.secrets.find(
    (s) => secretValue(s, 'SCW_DEFAULT_PROJECT_ID') !== undefined || secretValue(s, 'SCW_SECRET_KEY') !== undefined,
  );
  const projectId = secret ? secretValue(secret, 'SCW_DEFAULT_PROJECT_ID') : undefined;
  const region =
    (secret
      ? (secretValue(secret, 'SCW_DEFAULT_REGION') ?? secretValue(secret, 'SCW_DEFAULT_ZONE')?.replace(/-[0-9]+$/, ''))
      : undefined) ?? 'fr-par';
  const secrets: ConvertedClass['secrets'] = [];
  let credentialsRef: { name: string; namespace: string } | undefined;
  if (secret && secretValue(secret, 'SCW_SECRET_KEY') !== undefined) {
    const secretNotes: ConvertNote[] = [];
    const object = credentialsSecret(secret, name, ScalewaySecretKeys, secretNotes);
    secrets.push({ object, notes: secretNotes });
    credentialsRef = { name: nameOf(object), namespace: DefaultNodeClassSecretNamespace };
  }
  const joinNotes: ConvertNote[] = [];
  secrets.push({ object: joinTokenSecret(joinNotes), notes: joinNotes });
  const spec: KubeObject = {
    projectId: projectId ?? '<project-id>',
    zones: [1, 2, 3].map((n) => `${region}-${n}`),
    image: ScalewayGpuImage,
    join: { apiServerEndpoint: options.apiServerEndpoint ?? 'https://<cluster-endpoint>', tokenSecretRef: { ...JoinTokenSecret } },
    ...(credentialsRef ? { credentialsSecretRef: credentialsRef } : {}),
  };
  notes.push(...scalewayNotes(secret, projectId, region, options, credentialsRef !== undefined));
  return { nodeClass: { apiVersion: 'karpenter.scaleway.sh/v1alpha1', kind: 'ScalewayNodeClass', metadata: { name }, spec }, secrets };
}

function scalewayNotes(
  secret: KubeObject | undefined,
  projectId: string | undefined,
  region: string,
  options: ConvertOptions,
  credentials: boolean,
): ConvertNote[] {
  const notes: ConvertNote[] = [];
  notes.push({
    path: [],
    comment: 'the Scaleway GPU controller created instances itself; this class says where and how karpenter-eu creates them',
  });
  notes.push({ path: ['spec', 'projectId'], comment: credentialsNote(secret, projectId) });
  notes.push({
    path: ['spec', 'zones'],
    comment: `every zone of ${region}: Scaleway GPU types are only in some zones (L4, L40S, H100 in fr-par-2)`,
  });
  notes.push({ path: ['spec', 'image'], comment: "the controller chose the image in its code; this is Scaleway's GPU OS image label" });
  notes.push({
    path: ['spec', 'join', 'apiServerEndpoint'],
    comment: options.apiServerEndpoint
      ? 'from --api-server'
      : "the controller's <cluster-endpoint> placeholder: give --api-server or fill in the API server URL",
  });
  notes.push({
    path: ['spec', 'join', 'tokenSecretRef'],
    comment: "a bootstrap token (kubeadm token create) in this Secret key replaces the controller's cloud-init join",
  });
  if (credentials)
    notes.push({
      path: ['spec', 'credentialsSecretRef'],
      comment: "the controller's keys, in the Secret printed above: karpenter-eu reads the same SCW_ACCESS_KEY / SCW_SECRET_KEY",
    });
  return notes;
}

const ovhKnownFields = new Set(Object.keys(OVHNodeClassSpecSchema.properties));

/** The existing OVHcloud provider's OVHNodeClass: this project's kind; unknown fields dropped with a note. */
export function convertOvhNodeClass(nodeClass: KubeObject, notes: ConvertNote[]): KubeObject {
  const spec: KubeObject = {};
  for (const [key, value] of Object.entries(asRecord(nodeClass.spec) ?? {})) {
    if (ovhKnownFields.has(key)) spec[key] = value;
    else
      notes.push({
        path: ['spec'],
        comment: `dropped ${key}: ${JSON.stringify(value)} (not a field of karpenter-eu's OVHNodeClass; accepted: ${[...ovhKnownFields].sort().join(', ')})`,
      });
  }
  notes.push({
    path: [],
    comment: "the existing OVHcloud provider's OVHNodeClass: same group and kind; kubeId and region are detected when unset",
  });
  return { apiVersion: 'karpenter.ovhcloud.sh/v1alpha1', kind: 'OVHNodeClass', metadata: { name: nameOf(nodeClass) }, spec };
}

/** What of an AWS node template carries over to the target class: tags and userData; the rest is noted. */
export function carryAwsTemplate(template: KubeObject, target: KubeObject, notes: ConvertNote[]): void {
  const spec = asRecord(template.spec) ?? {};
  const targetSpec = asRecord(target.spec) ?? {};
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'tags' || key === 'userData') {
      targetSpec[key] = value;
      notes.push({ path: ['spec', key], comment: `from ${String(template.kind)} ${JSON.stringify(nameOf(template))}` });
    } else {
      notes.push({
        path: ['spec'],
        comment: `dropped ${String(template.kind)}.spec.${key}: an AWS selector or setting with no counterpart here`,
      });
    }
  }
}
