import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { chartCrdDifferences } from '../../scripts/chart-crds.js';
import { certModes, clouds, ofKind, only, type RenderedChart, render, repoRoot, valuesFor } from './chart-fixtures.js';
import { parseOperatorOptions } from '../../src/operator/options.js';
import { schemaProblems } from './kube-schema.js';

type Configuration = k8s.V1MutatingWebhookConfiguration | k8s.V1ValidatingWebhookConfiguration;

function containerOf(chart: RenderedChart): k8s.V1Container {
  return only<k8s.V1Deployment>(chart, 'Deployment').spec?.template.spec?.containers[0] as k8s.V1Container;
}

function webhookVolume(chart: RenderedChart): k8s.V1Volume | undefined {
  return only<k8s.V1Deployment>(chart, 'Deployment').spec?.template.spec?.volumes?.find((v) => v.name === 'webhook-tls');
}

const matrix = clouds.flatMap((cloud) => certModes.map((mode) => [cloud, mode] as const));

describe('the karpenter-eu chart', () => {
  it.each(matrix)('renders schema-valid objects for %s with %s certificates', async (cloud, mode) => {
    const chart = await render(valuesFor(cloud, mode, { serviceMonitor: { enabled: true } }));
    const problems = chart.documents.flatMap((d) => schemaProblems(d.object).map((p) => `${d.source}: ${p}`));
    expect(problems).toEqual([]);
    const kinds = new Set(chart.documents.map((d) => d.object.kind));
    for (const kind of [
      'CustomResourceDefinition',
      'Deployment',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'Service',
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
      'PodDisruptionBudget',
      'ServiceMonitor',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('the schema check catches an unknown field and a missing required one', () => {
    expect(
      schemaProblems({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { portz: [{ port: 1 }], ports: [{ name: 'x' }] },
      }),
    ).toEqual(['v1/Service s: unknown field spec.portz', 'v1/Service s: required field spec.ports[].port is missing']);
    expect(schemaProblems({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } })).toEqual(['v1/Pod: unknown apiVersion/kind']);
  });

  it('carries exactly the generated CRDs of manifests/crds, unmodified', async () => {
    expect(chartCrdDifferences()).toEqual([]);
    const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
    const crdDir = join(repoRoot, 'manifests', 'crds');
    const expected = readdirSync(crdDir).map((f) => YAML.parse(readFileSync(join(crdDir, f), 'utf8')) as unknown);
    expect(ofKind(chart, 'CustomResourceDefinition')).toEqual(expected);
    expect(
      ofKind<k8s.V1CustomResourceDefinition>(chart, 'CustomResourceDefinition')
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual([
      'nodeclaims.karpenter.sh',
      'nodeoverlays.karpenter.sh',
      'nodepools.karpenter.sh',
      'outscalenodeclasses.karpenter.outscale.sh',
      'ovhnodeclasses.karpenter.ovhcloud.sh',
      'scalewaynodeclasses.karpenter.scaleway.sh',
    ]);
  });

  it('runs two non-root, read-only, capability-less replicas with probes on the webhook and metrics ports', async () => {
    const deployment = only<k8s.V1Deployment>(await render(valuesFor('scaleway', 'selfSigned')), 'Deployment');
    const pod = deployment.spec?.template.spec as k8s.V1PodSpec;
    const container = pod.containers[0] as k8s.V1Container;
    expect(deployment.spec?.replicas).toBe(2);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.resources?.requests).toEqual({ cpu: '200m', memory: '256Mi' });
    expect(container.resources?.limits?.memory).toBe('512Mi');
    expect(container.ports?.map((p) => p.containerPort)).toEqual([8443, 8444, 8080]);
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http-metrics' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'https-webhook', scheme: 'HTTPS' });
    expect(pod.topologySpreadConstraints?.map((t) => t.topologyKey)).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({
      LEADER_ELECT: 'true',
      BATCH_IDLE_DURATION: '1s',
      BATCH_MAX_DURATION: '10s',
      LOG_LEVEL: 'info',
      CLUSTER_NAME: 'test-cluster',
      FEATURE_GATES: 'NodeRepair=false,NodeOverlay=false,DynamicResourceAllocation=false',
    });
    // The heap cap that keeps the idle RSS under the 512Mi limit (bench:operator).
    expect(env.NODE_OPTIONS).toBe('--max-old-space-size=192');
    expect(env.SCW_SECRET_KEY).toEqual({ secretKeyRef: { name: 'scaleway-credentials', key: 'SCW_SECRET_KEY' } });
    expect(env.POD_NAMESPACE).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
  });

  it.each([
    ['ovhcloud', ['OVH_APPLICATION_KEY', 'OVH_APPLICATION_SECRET', 'OVH_CONSUMER_KEY']],
    ['scaleway', ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY', 'SCW_DEFAULT_PROJECT_ID']],
    ['outscale', ['OSC_REGION', 'OSC_ACCESS_KEY', 'OSC_SECRET_KEY']],
  ] as const)("passes the %s account as that SDK's environment variables, from the named Secret", async (cloud, names) => {
    const container = containerOf(await render(valuesFor(cloud, 'selfSigned')));
    const cloudEnv = (container.env ?? []).map((e) => e.name).filter((n: string) => /^(OVH|SCW|OSC)_/.test(n));
    expect(cloudEnv).toEqual(names);
  });

  it("limits NodeClass Secret references to the Role's namespaces and the label, and never to the enabled clouds' own credentials Secrets", async () => {
    const values = valuesFor('scaleway', 'selfSigned', { rbac: { credentialsSecretNamespaces: ['karpenter', 'node-bootstrap'] } });
    const chart = await render({
      ...values,
      outscale: { region: 'eu-west-2' },
      cloud: {
        ...(values.cloud as object),
        outscale: { enabled: true, credentialsSecret: { name: 'osc-keys', accessKeyKey: 'AK', secretKeyKey: 'SK' } },
      },
    });
    const secretOptions = ['NODECLASS_SECRET_NAMESPACES', 'NODECLASS_SECRET_LABEL', 'OPERATOR_CREDENTIALS_SECRETS'];
    const env = Object.fromEntries(
      (containerOf(chart).env ?? []).filter((e) => secretOptions.includes(e.name)).map((e) => [e.name, e.value]),
    );
    expect(Object.keys(env)).toEqual(secretOptions);
    const config = parseOperatorOptions([], { ...env, CLUSTER_NAME: 'prod-par', POD_NAMESPACE: 'karpenter' });
    expect(config.nodeClassSecrets).toEqual({
      namespaces: ['karpenter', 'node-bootstrap'],
      label: { key: 'karpenter-eu.io/nodeclass-secret', value: 'true' },
      forbidden: [
        { namespace: 'karpenter', name: 'scaleway-credentials' },
        { namespace: 'karpenter', name: 'osc-keys' },
      ],
    });
  });

  it('passes the controller settings through', async () => {
    const values = valuesFor('outscale', 'selfSigned', {
      controller: { clusterName: 'prod-par', batchIdleDuration: '2s', logLevel: 'debug', leaderElection: { enabled: false } },
      replicas: 3,
    });
    const chart = await render(values);
    const env = Object.fromEntries((containerOf(chart).env ?? []).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({
      CLUSTER_NAME: 'prod-par',
      BATCH_IDLE_DURATION: '2s',
      LOG_LEVEL: 'debug',
      LEADER_ELECT: 'false',
      BATCH_MAX_DURATION: '10s',
    });
    const uncapped = Object.fromEntries(
      (containerOf(await render({ ...values, nodeOptions: '' })).env ?? []).map((e) => [e.name, e.value]),
    );
    expect(uncapped.NODE_OPTIONS).toBeUndefined();
    expect(only<k8s.V1Deployment>(chart, 'Deployment').spec?.replicas).toBe(3);
  });

  it('turns node repair on through controller.featureGates.nodeRepair, in the form `run` parses', async () => {
    const on = await render(
      valuesFor('scaleway', 'selfSigned', { controller: { clusterName: 'prod-par', featureGates: { nodeRepair: true } } }),
    );
    const env = Object.fromEntries((containerOf(on).env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
    expect(env.FEATURE_GATES).toBe('NodeRepair=true,NodeOverlay=false,DynamicResourceAllocation=false');
    expect(parseOperatorOptions([], env).featureGates).toEqual({ nodeRepair: true, nodeOverlay: false, dynamicResourceAllocation: false });
  });

  it('grants least privilege: no wildcard, exactly the verbs the controller uses', async () => {
    const chart = await render(valuesFor('ovhcloud', 'selfSigned', { rbac: { credentialsSecretNamespaces: ['team-a', 'team-b'] } }));
    const roles = [...ofKind<k8s.V1ClusterRole>(chart, 'ClusterRole'), ...ofKind<k8s.V1Role & { kind: string }>(chart, 'Role')];
    const rules = roles.flatMap((r) => r.rules ?? []);
    for (const rule of rules)
      for (const list of [rule.apiGroups, rule.resources, rule.verbs]) expect(list, JSON.stringify(rule)).not.toContain('*');
    const grants = (resource: string): string[] =>
      rules
        .filter((r) => r.resources?.includes(resource))
        .flatMap((r) => r.verbs)
        .sort();
    expect(grants('pods')).toEqual(['get', 'list', 'watch']);
    expect(grants('pods/eviction')).toEqual(['create']);
    expect(grants('nodes')).toEqual(['delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(grants('nodeclaims/status')).toEqual(['get', 'patch', 'update']);
    expect(grants('daemonsets')).toEqual(['get', 'list', 'watch']);
    for (const kind of ['resourceclaims', 'resourceclaimtemplates', 'deviceclasses', 'resourceslices'])
      expect(grants(kind)).toEqual(['get', 'list', 'watch']);
    expect(grants('poddisruptionbudgets')).toEqual(['get', 'list', 'watch']);
    expect(grants('volumeattachments')).toEqual(['list']);
    expect(grants('persistentvolumeclaims')).toEqual(['get']);
    expect(grants('events')).toEqual(['create', 'patch']);
    expect(grants('leases')).toEqual(['create', 'get', 'update']);
    for (const kind of ['ovhnodeclasses', 'scalewaynodeclasses', 'outscalenodeclasses'])
      expect(grants(kind)).toEqual(['get', 'list', 'patch', 'update', 'watch']);
    const secretRoles = roles.filter((r) => r.rules?.some((rule) => rule.resources?.includes('secrets')));
    expect(secretRoles.map((r) => [r.kind, r.metadata?.namespace, r.rules?.map((rule) => [rule.verbs, rule.resourceNames])])).toEqual([
      ['Role', 'team-a', [[['get'], undefined]]],
      ['Role', 'team-b', [[['get'], undefined]]],
      // selfSigned: its own certificate Secret by name; RBAC cannot limit create to a name.
      [
        'Role',
        'karpenter',
        [
          [['get', 'update'], ['karpenter-eu-cert']],
          [['create'], undefined],
        ],
      ],
    ]);
    const webhookRules = rules.filter((r) => r.apiGroups?.includes('admissionregistration.k8s.io'));
    expect(webhookRules.map((r) => [r.resources, r.resourceNames, r.verbs])).toEqual([
      [['mutatingwebhookconfigurations'], ['karpenter-eu-defaulting'], ['get', 'patch']],
      [['validatingwebhookconfigurations'], ['karpenter-eu-validation'], ['get', 'patch']],
    ]);
    expect(ofKind<k8s.V1ClusterRole>(chart, 'ClusterRole').some((r) => r.rules?.some((rule) => rule.resources?.includes('secrets')))).toBe(
      false,
    );
  });

  it.each(certModes)(
    'webhook configurations in %s mode: sideEffects None, v1 reviews, the chart Service, and a caBundle source',
    async (mode) => {
      const chart = await render(valuesFor('ovhcloud', mode), { namespace: 'autoscaling' });
      const configurations = [
        ...ofKind<Configuration>(chart, 'MutatingWebhookConfiguration'),
        ...ofKind<Configuration>(chart, 'ValidatingWebhookConfiguration'),
      ];
      const webhooks = configurations.flatMap((c) => c.webhooks ?? []);
      expect(webhooks.map((w) => w.name)).toEqual([
        'defaulting.karpenter-eu.io',
        'validation.karpenter-eu.io',
        'nodeclaims.validation.karpenter-eu.io',
        'pods.validation.karpenter-eu.io',
      ]);
      for (const webhook of webhooks) {
        expect(webhook.sideEffects).toBe('None');
        expect(webhook.admissionReviewVersions).toEqual(['v1']);
        expect(webhook.clientConfig.service).toMatchObject({ name: 'karpenter-eu', namespace: 'autoscaling', port: 8443 });
        if (webhook.namespaceSelector) expect(webhook.namespaceSelector.matchExpressions?.[0]?.values).toContain('autoscaling');
      }
      expect(webhooks.map((w) => w.failurePolicy)).toEqual(['Fail', 'Fail', 'Fail', 'Ignore']);
      const bundles = webhooks.map((w) => w.clientConfig.caBundle);
      const injected = configurations.map((c) => c.metadata?.annotations?.['cert-manager.io/inject-ca-from']);
      if (mode === 'certManager') {
        expect(bundles).toEqual([undefined, undefined, undefined, undefined]);
        // From the CA Certificate: a renewal of the serving certificate leaves the injected CA as it is.
        expect(injected).toEqual(['autoscaling/karpenter-eu-ca', 'autoscaling/karpenter-eu-ca']);
      } else if (mode === 'selfSigned') {
        // Set by the service at run time: nothing in the render changes from one render to the next.
        expect(bundles).toEqual([undefined, undefined, undefined, undefined]);
        expect(injected).toEqual([undefined, undefined]);
        expect(ofKind(chart, 'Certificate')).toEqual([]);
      } else {
        expect(injected).toEqual([undefined, undefined]);
        expect(new Set(bundles).size).toBe(1);
        expect(bundles[0]).toMatch(/^[A-Za-z0-9+/]+=*$/);
        expect(ofKind(chart, 'Certificate')).toEqual([]);
      }
    },
  );

  it('selfSigned: no certificate in the render; the service makes it, told its Secret, Service and webhook configurations', async () => {
    const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
    expect(ofKind(chart, 'Secret')).toEqual([]);
    expect(webhookVolume(chart)).toBeUndefined();
    const env = Object.fromEntries((containerOf(chart).env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
    expect(Object.keys(env).filter((name) => name.endsWith('_CERT_FILE') || name.endsWith('_KEY_FILE'))).toEqual([]);
    const config = parseOperatorOptions([], { ...env, POD_NAMESPACE: 'karpenter' });
    expect(config.certificates).toEqual({
      secret: { namespace: 'karpenter', name: 'karpenter-eu-cert' },
      dnsNames: ['karpenter-eu.karpenter.svc', 'karpenter-eu', 'karpenter-eu.karpenter', 'karpenter-eu.karpenter.svc.cluster.local'],
      caValidityDays: 3650,
      webhookConfigurations: { mutating: ['karpenter-eu-defaulting'], validating: ['karpenter-eu-validation'] },
    });
    const names = [
      ...ofKind<Configuration>(chart, 'MutatingWebhookConfiguration'),
      ...ofKind<Configuration>(chart, 'ValidatingWebhookConfiguration'),
    ].map((c) => c.metadata?.name);
    expect(names).toEqual(['karpenter-eu-defaulting', 'karpenter-eu-validation']);
  });

  it('certManager: a CA chain, self-signed Issuer → CA Certificate → CA Issuer → serving Certificate in the mounted Secret', async () => {
    const chart = await render(valuesFor('ovhcloud', 'certManager', { webhook: { cert: { validityDays: 1825 } } }));
    type Issuer = { metadata: { name: string }; spec: { selfSigned?: object; ca?: { secretName: string } } };
    type Certificate = {
      metadata: { name: string };
      spec: { isCA?: boolean; secretName: string; duration?: string; issuerRef: { name: string; kind: string }; privateKey?: object };
    };
    const issuers = new Map(ofKind<Issuer>(chart, 'Issuer').map((i) => [i.metadata.name, i.spec]));
    const certificates = new Map(ofKind<Certificate>(chart, 'Certificate').map((c) => [c.metadata.name, c.spec]));
    const ca = certificates.get('karpenter-eu-ca');
    expect(ca).toMatchObject({ isCA: true, duration: '43800h', privateKey: { rotationPolicy: 'Never' } });
    expect(issuers.get(ca?.issuerRef.name ?? '')).toEqual({ selfSigned: {} });
    const serving = certificates.get('karpenter-eu-webhook');
    expect(serving?.isCA).toBeUndefined();
    expect(issuers.get(serving?.issuerRef.name ?? '')).toEqual({ ca: { secretName: ca?.secretName } });
    expect(webhookVolume(chart)?.secret?.secretName).toBe(serving?.secretName);
    // Another issuer: no chain of the chart's, the CA injected from the serving Certificate (its issuer's CA).
    const other = await render(
      valuesFor('ovhcloud', 'certManager', { webhook: { cert: { certManager: { issuerRef: { name: 'corp', kind: 'ClusterIssuer' } } } } }),
    );
    expect(ofKind(other, 'Issuer')).toEqual([]);
    expect(ofKind<Certificate>(other, 'Certificate').map((c) => [c.metadata.name, c.spec.issuerRef.name])).toEqual([
      ['karpenter-eu-webhook', 'corp'],
    ]);
    expect(only<Configuration>(other, 'MutatingWebhookConfiguration').metadata?.annotations?.['cert-manager.io/inject-ca-from']).toBe(
      'karpenter/karpenter-eu-webhook',
    );
  });

  it('provided: mounts the named Secret and uses the given caBundle', async () => {
    const chart = await render(valuesFor('ovhcloud', 'provided'));
    expect(webhookVolume(chart)?.secret?.secretName).toBe('my-webhook-tls');
    expect(ofKind(chart, 'Secret')).toEqual([]);
  });

  it('omits the ServiceMonitor by default and the PDB when disabled', async () => {
    const chart = await render(valuesFor('ovhcloud', 'certManager', { podDisruptionBudget: { enabled: false } }));
    expect(ofKind(chart, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(chart, 'PodDisruptionBudget')).toEqual([]);
    const pdb = only<k8s.V1PodDisruptionBudget>(await render(valuesFor('ovhcloud', 'certManager')), 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'karpenter-eu', 'app.kubernetes.io/instance': 'karpenter-eu' } },
    });
  });

  it.each([
    [{ controller: { clusterName: 'a' } }, 'no cloud enabled'],
    [
      valuesFor('ovhcloud', 'selfSigned', { webhook: { cert: { mode: 'vault' } } }),
      'webhook.cert.mode: webhook.cert.mode must be one of the following: "selfSigned", "certManager", "provided"',
    ],
    [
      valuesFor('ovhcloud', 'provided', { webhook: { cert: { mode: 'provided', provided: { secretName: 'x', caBundle: '' } } } }),
      'webhook.cert.provided.caBundle is required',
    ],
    [valuesFor('ovhcloud', 'selfSigned', { serviceAccount: { create: false } }), 'serviceAccount.name is required'],
    [valuesFor('ovhcloud', 'selfSigned', { controller: { clusterName: '' } }), 'controller.clusterName'],
  ])('refuses unusable values with a message naming the value (%#)', async (values, message) => {
    await expect(render(values as Record<string, unknown>)).rejects.toThrow(message);
  });

  it('names objects after the release', async () => {
    const chart = await render(valuesFor('scaleway', 'selfSigned'), { releaseName: 'autoscaler', namespace: 'kube-system' });
    expect(only<k8s.V1Deployment>(chart, 'Deployment').metadata?.name).toBe('autoscaler-karpenter-eu');
    const env = Object.fromEntries((containerOf(chart).env ?? []).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ CERT_SECRET: 'autoscaler-karpenter-eu-cert', CERT_SERVICE: 'autoscaler-karpenter-eu' });
  });
});
