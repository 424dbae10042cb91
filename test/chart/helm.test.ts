/**
 * The chart as users install it: real `helm lint --strict` and `helm template` (Helm 3.17) over the value sets of
 * the docs and of the users' guides, and the values Helm must refuse, each with a message naming the value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { chartDir, merged, ofKind, only, render, repoRoot, testClusterName, valuesFor } from './chart-fixtures.js';
import { parseOperatorOptions } from '../../src/operator/options.js';
import { helm, HelmError, helmOrThrow, helmWithValues, parseManifests } from './helm.js';

const clusterName = { controller: { clusterName: testClusterName } };

/** Each value set a user is told to install with; every one must lint clean and render. */
const valueSets: Array<[string, Record<string, unknown>]> = [
  ['OVHcloud alone', valuesFor('ovhcloud', 'selfSigned')],
  ['Scaleway alone', valuesFor('scaleway', 'selfSigned')],
  ['Outscale alone', valuesFor('outscale', 'selfSigned')],
  [
    'all three clouds',
    merged(valuesFor('ovhcloud', 'selfSigned'), { cloud: { scaleway: { enabled: true }, outscale: { enabled: true } } }),
  ],
  [
    'two replicas with leader election',
    valuesFor('scaleway', 'selfSigned', { replicas: 2, controller: { leaderElection: { enabled: true } } }),
  ],
  ['cert-manager', valuesFor('outscale', 'certManager', { serviceMonitor: { enabled: true } })],
  [
    'cert-manager with an issuer of the user',
    valuesFor('ovhcloud', 'certManager', {
      webhook: { cert: { certManager: { issuerRef: { name: 'ca', kind: 'ClusterIssuer', group: 'cert-manager.io' } } } },
    }),
  ],
  ['provided certificates', valuesFor('ovhcloud', 'provided')],
  [
    "the guides' settings of every cloud",
    {
      ...clusterName,
      ovh: { serviceName: 'p1', kubeId: 'k1', region: 'GRA7', endpoint: 'ovh-eu' },
      scaleway: { region: 'nl-ams' },
      outscale: { region: 'cloudgouv-eu-west-1' },
    },
  ],
];

/**
 * The users' guides' install lines (../shared/seeds/ 001, 002, 004), copied verbatim but for the placeholders,
 * plus the cluster name the chart requires.
 */
const seedInstallLines: Array<[string, string[], Record<string, string>]> = [
  [
    '001',
    ['ovh.serviceName=0123456789abcdef0123456789abcdef', 'ovh.kubeId=6f2cbb1c-0f6d-4c0e-9a7e-6a3c0e2f1b9d', 'ovh.region=GRA7'],
    { OVH_SERVICE_NAME: '0123456789abcdef0123456789abcdef', OVH_KUBE_ID: '6f2cbb1c-0f6d-4c0e-9a7e-6a3c0e2f1b9d', OVH_REGION: 'GRA7' },
  ],
  ['002', ['ovh.serviceName=0123456789abcdef0123456789abcdef'], { OVH_SERVICE_NAME: '0123456789abcdef0123456789abcdef' }],
  [
    '004',
    ['ovh.serviceName=fedcba9876543210fedcba9876543210', 'ovh.kubeId=0d7f3a52-1c44-4a8e-b1a0-9f1e2d3c4b5a', 'ovh.region=SBG5'],
    { OVH_SERVICE_NAME: 'fedcba9876543210fedcba9876543210', OVH_KUBE_ID: '0d7f3a52-1c44-4a8e-b1a0-9f1e2d3c4b5a', OVH_REGION: 'SBG5' },
  ],
];

function envOf(deployment: k8s.V1Deployment): Record<string, unknown> {
  const container = deployment.spec?.template.spec?.containers[0];
  return Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
}

async function refusal(values: Record<string, unknown>, set: string[] = []): Promise<string> {
  const error = await render(values, { set }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HelmError)) throw new Error(`helm template accepted ${JSON.stringify(values)} ${set.join(' ')}`);
  return error.result.stderr;
}

describe('the chart under real Helm', () => {
  it('is Helm 3.17 from the devDependency, not a look-alike', () => {
    expect(helm(['version', '--short']).stdout).toMatch(/^v3\.17\./);
  });

  it.each(valueSets)('%s: helm lint --strict passes and helm template renders one Deployment', async (_name, values) => {
    helmWithValues(['lint', '--strict', chartDir], { values });
    const deployment = only<k8s.V1Deployment>(await render(values), 'Deployment');
    expect(envOf(deployment).CLUSTER_NAME).toBe(testClusterName);
  });

  it("all three clouds: the Deployment carries each cloud's account and the guides' settings reach the service", async () => {
    const [, values] = valueSets.find(([name]) => name.startsWith('the guides')) as [string, Record<string, unknown>];
    const env = envOf(only<k8s.V1Deployment>(await render(values), 'Deployment'));
    expect(env).toMatchObject({
      OVH_SERVICE_NAME: 'p1',
      OVH_KUBE_ID: 'k1',
      OVH_REGION: 'GRA7',
      OVH_ENDPOINT: 'ovh-eu',
      SCW_DEFAULT_REGION: 'nl-ams',
      OSC_REGION: 'cloudgouv-eu-west-1',
    });
    for (const name of ['OVH_APPLICATION_KEY', 'SCW_SECRET_KEY', 'OSC_SECRET_KEY'])
      expect(env[name], name).toMatchObject({ secretKeyRef: expect.anything() });
  });

  it.each(seedInstallLines)(
    'the install line of guide %s lints clean and drives OVHcloud with its values',
    async (_seed, set, expected) => {
      helmWithValues(['lint', '--strict', chartDir], { values: clusterName, set });
      const env = envOf(only<k8s.V1Deployment>(await render(clusterName, { namespace: 'karpenter', set }), 'Deployment'));
      expect(env).toMatchObject(expected);
      expect(env.OVH_APPLICATION_KEY).toEqual({ secretKeyRef: { name: 'ovh-credentials', key: 'applicationKey' } });
    },
  );

  it.each(seedInstallLines.filter(([, , env]) => env.OVH_KUBE_ID))(
    'the install line of guide %s as written (no cluster name) installs, naming the cluster after the MKS cluster id',
    async (_seed, set, expected) => {
      helmWithValues(['lint', '--strict', chartDir], { set });
      const env = envOf(only<k8s.V1Deployment>(await render({}, { namespace: 'karpenter', set }), 'Deployment'));
      expect(env).toMatchObject({ ...expected, CLUSTER_NAME: expected.OVH_KUBE_ID });
      // The name reaches the service as the service parses it: tags, pool names and GC scope all read this one value.
      expect(parseOperatorOptions([], { CLUSTER_NAME: String(env.CLUSTER_NAME), POD_NAMESPACE: 'karpenter' }).clusterName).toBe(
        expected.OVH_KUBE_ID,
      );
    },
  );

  it("guide 002's install line (no ovh.kubeId to name the cluster after) is refused in one line saying controller.clusterName is required and why", async () => {
    const stderr = await refusal({}, seedInstallLines[1]?.[1]);
    const lines = stderr
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('Use --debug'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /controller\.clusterName is required when ovh\.kubeId is unset: .*unique among the clusters sharing a cloud project/,
    );
  });

  it.each([
    [
      'a cluster name the service would refuse',
      { controller: { clusterName: 'Prod Cluster' } },
      [],
      'controller.clusterName: Does not match pattern',
    ],
    [
      'a cluster name longer than a label value',
      { controller: { clusterName: 'a'.repeat(64) } },
      [],
      'controller.clusterName: Does not match pattern',
    ],
    [
      'an MKS cluster id that cannot name the cluster',
      {},
      ['ovh.serviceName=p1', 'ovh.kubeId=VOTRE_CLUSTER_ID'],
      'ovh.kubeId "VOTRE_CLUSTER_ID" cannot',
    ],
  ] as const)('refuses %s, naming the value', async (_name, values, set, message) => {
    expect(await refusal(values, [...set])).toContain(message);
  });

  it.each([
    [
      'failurePolicy: ignore',
      { webhook: { failurePolicy: 'ignore' } },
      [],
      'webhook.failurePolicy: webhook.failurePolicy must be one of the following: "Fail", "Ignore"',
    ],
    ['timeoutSeconds: 45', { webhook: { timeoutSeconds: 45 } }, [], 'webhook.timeoutSeconds: Must be less than or equal to 30'],
    [
      'logLevel: verbose',
      { controller: { logLevel: 'verbose' } },
      [],
      'controller.logLevel: controller.logLevel must be one of the following: "debug", "info", "warn", "error"',
    ],
    ['the typo replica: 3', { replica: 3 }, [], 'Additional property replica is not allowed'],
    [
      'ovhcloud.enabled: "false" (a string)',
      { cloud: { ovhcloud: { enabled: 'false' } } },
      [],
      'cloud.ovhcloud.enabled: Invalid type. Expected: boolean, given: string',
    ],
    [
      '--set webhook.cert.validityDays=abc',
      {},
      ['webhook.cert.validityDays=abc'],
      'webhook.cert.validityDays: Invalid type. Expected: integer, given: string',
    ],
    ['a typo under webhook', { webhook: { failurepolicy: 'Fail' } }, [], 'Additional property failurepolicy is not allowed'],
    [
      'an unknown cert mode',
      { webhook: { cert: { mode: 'vault' } } },
      [],
      'webhook.cert.mode: webhook.cert.mode must be one of the following: "selfSigned", "certManager", "provided"',
    ],
    ['a Scaleway region that is not one', { scaleway: { region: 'paris' } }, [], 'scaleway.region: Does not match pattern'],
    ['an OVH endpoint that is not one', { ovh: { endpoint: 'eu' } }, [], 'ovh.endpoint: Does not match pattern'],
    ['a duration without a unit', { controller: { batchIdleDuration: '10' } }, [], 'controller.batchIdleDuration: Does not match pattern'],
  ] as const)('refuses %s, naming the value', async (_name, values, set, message) => {
    const stderr = await refusal(merged(valuesFor('ovhcloud', 'selfSigned'), values), [...set]);
    expect(stderr).toContain("values don't meet the specifications of the schema(s)");
    expect(stderr).toContain(message);
  });

  it('helm lint --strict passes on the bare chart, saying at INFO level what an install still needs', () => {
    const result = helm(['lint', '--strict', chartDir]);
    expect(result.stderr + result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('has one chart-testing values file per cloud under ci/, each linting clean and rendering that cloud', async () => {
    const files = readdirSync(join(chartDir, 'ci')).sort();
    expect(files).toEqual(['outscale-values.yaml', 'ovhcloud-values.yaml', 'scaleway-values.yaml']);
    for (const file of files) {
      const path = join(chartDir, 'ci', file);
      helmOrThrow(['lint', '--strict', chartDir, '-f', path]);
      const objects = parseManifests(helmOrThrow(['template', 'ct', chartDir, '-f', path]).stdout).map((d) => d.object);
      const deployment = objects.find((o) => o.kind === 'Deployment') as k8s.V1Deployment;
      const env = envOf(deployment);
      const cloud = file.replace('-values.yaml', '');
      const credentialsEnv = { ovhcloud: 'OVH_APPLICATION_KEY', scaleway: 'SCW_ACCESS_KEY', outscale: 'OSC_ACCESS_KEY' }[cloud] as string;
      expect(env[credentialsEnv], file).toMatchObject({ secretKeyRef: expect.anything() });
      expect(env.CLUSTER_NAME, file).toMatch(/^[a-z0-9]/);
    }
  });

  it('takes --set values as Helm does: image.tag=1.10 stays 1.10, tolerations[0].key is kept, affinity=null drops the affinity', async () => {
    const set = ['image.tag=1.10', 'tolerations[0].key=dedicated', 'tolerations[0].operator=Exists', 'affinity=null'];
    const pod = only<k8s.V1Deployment>(await render(valuesFor('ovhcloud', 'selfSigned'), { set }), 'Deployment').spec?.template.spec;
    expect(pod?.containers[0]?.image).toBe('ghcr.io/karpenter-eu/karpenter-eu:1.10');
    expect(pod?.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
    expect(pod?.affinity).toBeUndefined();
  });
});

describe('the CRD chart (manifests/chart-crd): CRDs that helm upgrade updates', () => {
  const crdChart = join(repoRoot, 'manifests', 'chart-crd');
  const generated = readdirSync(join(repoRoot, 'manifests', 'crds'))
    .sort()
    .map((f) => YAML.parse(readFileSync(join(repoRoot, 'manifests', 'crds', f), 'utf8')) as unknown);

  it('lints clean and renders, as templates, exactly the generated CRDs', () => {
    helmOrThrow(['lint', '--strict', crdChart]);
    const rendered = parseManifests(helmOrThrow(['template', 'karpenter-eu-crd', crdChart]).stdout);
    expect(rendered.every((d) => d.source.startsWith('templates/'))).toBe(true);
    expect(rendered.map((d) => d.object)).toEqual(generated);
  });

  it('the main chart installed with --skip-crds next to it renders no CRD', async () => {
    const args = [
      'template',
      'karpenter-eu',
      chartDir,
      '--skip-crds',
      '--set',
      `controller.clusterName=${testClusterName}`,
      '--set',
      'ovh.serviceName=p1',
    ];
    expect(parseManifests(helmOrThrow(args).stdout).filter((d) => d.object.kind === 'CustomResourceDefinition')).toEqual([]);
    expect(ofKind(await render(valuesFor('ovhcloud', 'selfSigned')), 'CustomResourceDefinition')).toHaveLength(generated.length);
  });
});
