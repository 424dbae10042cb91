import { describe, expect, it } from 'vitest';
import { nodeClassReadyCondition, type CredentialFacts } from '../../../../src/domain/nodeclass/readiness.js';
import { type NodeClassCloudFacts, offeredGpus, resolvedStatusFields } from '../../../../src/domain/nodeclass/cloud-facts.js';

const keys = ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY'];
const ref = { name: 'scw', namespace: 'karpenter' };
const at = (credentials: CredentialFacts, previous = [] as Parameters<typeof nodeClassReadyCondition>[0]['previous']) =>
  nodeClassReadyCondition({
    kind: 'ScalewayNodeClass',
    cloud: 'scaleway',
    credentials,
    previous,
    generation: 3,
    now: Date.parse('2026-11-26T05:00:00Z'),
  });

describe('NodeClass Ready', () => {
  it.each([
    ['service credentials, no ref', { requiredKeys: keys, globalCredentials: true }, 'True', 'Ready', "using the service's credentials"],
    [
      'no ref, no service credentials',
      { requiredKeys: keys, globalCredentials: false },
      'False',
      'CredentialsNotConfigured',
      'set spec.credentialsSecretRef to a Secret with SCW_ACCESS_KEY, SCW_SECRET_KEY',
    ],
    [
      'Secret missing',
      { ref, secret: 'missing' as const, requiredKeys: keys, globalCredentials: true },
      'False',
      'CredentialsSecretNotFound',
      'Secret karpenter/scw does not exist',
    ],
    [
      'Secret without a key',
      { ref, secret: { keys: ['SCW_ACCESS_KEY'] }, requiredKeys: keys, globalCredentials: false },
      'False',
      'CredentialsIncomplete',
      'Secret karpenter/scw lacks SCW_SECRET_KEY: add it',
    ],
    [
      'Secret complete but refused by the NodeClass Secret policy',
      { ref, secret: { keys }, refusal: 'Secret karpenter/scw does not carry the label x=y', requiredKeys: keys, globalCredentials: true },
      'False',
      'CredentialsSecretNotAllowed',
      'does not carry the label x=y',
    ],
    [
      'Secret complete',
      { ref, secret: { keys }, requiredKeys: keys, globalCredentials: false },
      'True',
      'Ready',
      'credentials from Secret karpenter/scw',
    ],
    [
      "the operator's own Secret, the service's credentials configured",
      { serviceSecret: ref, requiredKeys: keys, globalCredentials: true },
      'True',
      'Ready',
      "using the service's credentials (credentialsSecretRef names its own Secret karpenter/scw)",
    ],
    [
      "the operator's own Secret, no service credentials",
      { serviceSecret: ref, requiredKeys: keys, globalCredentials: false },
      'False',
      'CredentialsNotConfigured',
      "the service's scaleway credentials, and the service has none configured",
    ],
  ])('%s', (_, credentials, status, reason, message) => {
    const condition = at(credentials as CredentialFacts);
    expect(condition).toMatchObject({ type: 'Ready', status, reason, observedGeneration: 3 });
    expect(condition.message).toContain(message);
  });

  it('keeps lastTransitionTime while the status holds, and moves it when it flips', () => {
    const earlier = {
      type: 'Ready',
      status: 'False' as const,
      reason: 'CredentialsSecretNotFound',
      message: 'x',
      lastTransitionTime: '2026-11-01T00:00:00.000Z',
    };
    expect(at({ ref, secret: 'missing', requiredKeys: keys, globalCredentials: false }, [earlier]).lastTransitionTime).toBe(
      '2026-11-01T00:00:00.000Z',
    );
    expect(at({ ref, secret: { keys }, requiredKeys: keys, globalCredentials: false }, [earlier]).lastTransitionTime).toBe(
      '2026-11-26T05:00:00.000Z',
    );
  });

  it('says which MKS cluster was detected for a class that names none, and is not Ready when none could be', () => {
    const credentials: CredentialFacts = { requiredKeys: keys, globalCredentials: true };
    const input = { kind: 'OVHNodeClass', credentials, previous: [], now: 0 };
    const detected = nodeClassReadyCondition({ ...input, cluster: { detected: { kubeId: 'k-1', region: 'GRA11' } } });
    expect(detected).toMatchObject({ status: 'True', reason: 'Ready' });
    expect(detected.message).toContain('MKS cluster k-1 (GRA11) detected');
    const refused = nodeClassReadyCondition({
      ...input,
      cluster: { notDetected: 'several clusters have nodes of this cluster (a, b), refusing to guess' },
    });
    expect(refused).toMatchObject({
      status: 'False',
      reason: 'KubeIdNotDetected',
      message: 'several clusters have nodes of this cluster (a, b), refusing to guess',
    });
    // Credentials come first: a class without them says so, whatever the detection.
    expect(
      nodeClassReadyCondition({ ...input, credentials: { ...credentials, globalCredentials: false }, cluster: { notDetected: 'x' } })
        .reason,
    ).toBe('CredentialsNotConfigured');
  });
});

describe('NodeClass Ready from what the cloud said', () => {
  const credentials: CredentialFacts = { ref, secret: { keys }, requiredKeys: keys, globalCredentials: false };
  const ready = (cloud: NodeClassCloudFacts) =>
    nodeClassReadyCondition({ kind: 'OutscaleNodeClass', credentials, cloudFacts: cloud, previous: [], now: 0 });
  const found: NodeClassCloudFacts = {
    image: { field: 'spec.imageId', ref: 'ami-1', where: 'eu-west-2', resolved: [{ id: 'ami-1', name: 'ubuntu' }] },
    subnets: [{ field: 'spec.subnets[0].subnetId', id: 'subnet-a', zone: 'eu-west-2a', found: { zone: 'eu-west-2a' } }],
    securityGroups: [{ field: 'spec.securityGroupIds[0]', id: 'sg-1', found: { name: 'workers' } }],
  };

  it.each([
    [
      'credentials refused',
      { ...found, credentialsRejected: '401 AccessDenied' },
      'CredentialsRejected',
      'the cloud refused the credentials (401 AccessDenied)',
    ],
    [
      'project not found',
      { notFound: { what: 'project' as const, field: 'spec.serviceName', id: 'p', detail: '404' } },
      'ProjectNotFound',
      'spec.serviceName "p": no such project',
    ],
    [
      'cluster not found',
      { notFound: { what: 'cluster' as const, field: 'spec.kubeId', id: 'k', detail: '404' } },
      'ClusterNotFound',
      'spec.kubeId "k": no such cluster',
    ],
    [
      'image not found',
      { ...found, image: { field: 'spec.imageId', ref: 'ami-9', where: 'eu-west-2', resolved: [] } },
      'ImageNotFound',
      'spec.imageId "ami-9": no such image in eu-west-2',
    ],
    [
      'a subnet not found',
      { ...found, subnets: [{ field: 'spec.subnets[1].subnetId', id: 'subnet-x', zone: 'eu-west-2b' }] },
      'SubnetNotFound',
      'spec.subnets[1].subnetId "subnet-x": no such subnet',
    ],
    [
      'a subnet in another subregion',
      { ...found, subnets: [{ field: 'spec.subnets[0].subnetId', id: 'subnet-a', zone: 'eu-west-2b', found: { zone: 'eu-west-2a' } }] },
      'SubnetZoneMismatch',
      '"subnet-a" is in eu-west-2a, not eu-west-2b',
    ],
    [
      'a security group not found',
      { ...found, securityGroups: [{ field: 'spec.securityGroupIds[0]', id: 'sg-9' }] },
      'SecurityGroupNotFound',
      'spec.securityGroupIds[0] "sg-9": no such security group',
    ],
  ])('%s: Ready False with the reason and the field', (_, cloud, reason, message) => {
    const condition = ready(cloud as NodeClassCloudFacts);
    expect(condition).toMatchObject({ status: 'False', reason });
    expect(condition.message).toContain(message);
  });

  it('everything found: Ready, and the status fields say what each name resolved to', () => {
    expect(ready(found)).toMatchObject({ status: 'True', reason: 'Ready' });
    expect(resolvedStatusFields(found)).toEqual({
      images: [{ id: 'ami-1', name: 'ubuntu' }],
      subnets: [{ id: 'subnet-a', zone: 'eu-west-2a' }],
      securityGroups: [{ id: 'sg-1', name: 'workers' }],
    });
  });

  it('the Secret comes first: a missing Secret is reported, not what the cloud said', () => {
    const condition = nodeClassReadyCondition({
      kind: 'OutscaleNodeClass',
      credentials: { ...credentials, secret: 'missing' },
      cloudFacts: { credentialsRejected: 'x' },
      previous: [],
      now: 0,
    });
    expect(condition.reason).toBe('CredentialsSecretNotFound');
  });
});

describe('NodeClass Ready and the GPUs its NodePools ask for', () => {
  const credentials: CredentialFacts = { requiredKeys: keys, globalCredentials: true };
  const ready = (gpus: NodeClassCloudFacts['gpus']) =>
    nodeClassReadyCondition({ kind: 'ScalewayNodeClass', credentials, cloudFacts: { gpus }, previous: [], now: 0 });
  const offered = offeredGpus([
    { gpu: { name: 'l4' }, offerings: [{ zone: 'fr-par-2' }] },
    { gpu: { name: 'h100' }, offerings: [{ zone: 'fr-par-2' }, { zone: 'fr-par-1' }] },
    { offerings: [{ zone: 'fr-par-1' }] },
    { gpu: { name: 'l40s' }, offerings: [] },
  ]);

  it('lists each GPU model with the zones offering it, not those listed without an offering in the zones', () => {
    expect(offered).toEqual([
      { gpu: 'h100', zones: ['fr-par-1', 'fr-par-2'] },
      { gpu: 'l4', zones: ['fr-par-2'] },
    ]);
  });

  it('is Ready when some zone of the class offers every GPU asked for', () => {
    expect(ready([{ nodePool: 'gpu', gpu: 'l4', offered }])).toMatchObject({ status: 'True' });
  });

  it('is GpuNotOffered, naming the NodePool, the GPU and what the zones offer, when no zone offers it', () => {
    const condition = ready([{ nodePool: 'gpu', gpu: 'l40s', offered }]);
    expect(condition).toMatchObject({ status: 'False', reason: 'GpuNotOffered' });
    expect(condition.message).toContain(
      'NodePool gpu asks for GPU "l40s", which no zone of this class offers; GPUs its zones offer: h100 (fr-par-1, fr-par-2), l4 (fr-par-2)',
    );
  });
});
