import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IncompleteCloudCredentialsError,
  InvalidOptionError,
  parseOperatorOptions,
  UnknownOptionError,
} from '../../../src/operator/options.js';
import { parseDurationMs } from '../../../src/operator/option-values.js';

/** Every run names its cluster; tests about other options pass this. */
const cluster = { CLUSTER_NAME: 'prod-par' };
const scw = {
  SCW_ACCESS_KEY: 'SCWXXXXXXXXXXXXXXXXX',
  SCW_SECRET_KEY: '11111111-1111-1111-1111-111111111111',
  SCW_DEFAULT_PROJECT_ID: '22222222-2222-2222-2222-222222222222',
};

describe('parseOperatorOptions defaults', () => {
  const config = parseOperatorOptions([], cluster);

  it.each([
    ['webhook port', config.webhook.port, 8443],
    ['extender port', config.extender.port, 8444],
    ['metrics port', config.metrics.port, 8080],
    ['request bytes in flight per port', config.requestBytesInFlight, 16 * 1024 * 1024],
    ['batch idle', config.batch.idleMs, 1000],
    ['batch max', config.batch.maxMs, 10_000],
    ['disruption interval', config.disruption.intervalMs, 10_000],
    ['validation delay', config.disruption.validationDelayMs, 15_000],
    ['gc interval', config.garbageCollection.intervalMs, 120_000],
    ['lease duration', config.leaderElection.leaseDurationMs, 15_000],
    ['renew deadline', config.leaderElection.renewDeadlineMs, 10_000],
    ['retry period', config.leaderElection.retryPeriodMs, 2_000],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('uses in-cluster config, leader election on, info logs, no cloud', () => {
    expect(config.kubeconfigPath).toBeUndefined();
    expect(config.leaderElection).toMatchObject({
      enabled: true,
      leaseName: 'karpenter-eu-leader-election',
      leaseNamespace: 'kube-system',
    });
    expect(config.logLevel).toBe('info');
    expect(config.clouds).toEqual({});
    expect(config.extender.tls).toBeUndefined();
    expect(config.webhook.tls).toEqual({ certFile: '/etc/karpenter-eu/tls/tls.crt', keyFile: '/etc/karpenter-eu/tls/tls.key' });
  });
});

describe('parseOperatorOptions precedence', () => {
  it.each<[string, string[], Record<string, string>, (c: ReturnType<typeof parseOperatorOptions>) => unknown, unknown]>([
    ['flag with space', ['--webhook-port', '9443'], {}, (c) => c.webhook.port, 9443],
    ['flag with =', ['--metrics-port=0'], {}, (c) => c.metrics.port, 0],
    ['env', [], { BATCH_IDLE_DURATION: '500ms' }, (c) => c.batch.idleMs, 500],
    ['request budget from env', [], { REQUEST_BYTES_IN_FLIGHT: '64M' }, (c) => c.requestBytesInFlight, 64_000_000],
    ['request budget flag', ['--request-bytes-in-flight=4Mi'], {}, (c) => c.requestBytesInFlight, 4 * 1024 * 1024],
    ['flag beats env', ['--batch-idle-duration', '2s'], { BATCH_IDLE_DURATION: '500ms' }, (c) => c.batch.idleMs, 2000],
    ['KUBECONFIG first path', [], { KUBECONFIG: '/a/config:/b/config' }, (c) => c.kubeconfigPath, '/a/config'],
    ['bare boolean flag', ['--leader-elect'], { LEADER_ELECT: 'false' }, (c) => c.leaderElection.enabled, true],
    ['boolean env', [], { LEADER_ELECT: 'false' }, (c) => c.leaderElection.enabled, false],
    ['identity from POD_NAME', [], { POD_NAME: 'karpenter-eu-abc', HOSTNAME: 'h' }, (c) => c.leaderElection.identity, 'karpenter-eu-abc'],
    ['identity from HOSTNAME', [], { HOSTNAME: 'host-1' }, (c) => c.leaderElection.identity, 'host-1'],
    ['namespace from POD_NAMESPACE', [], { POD_NAMESPACE: 'karpenter' }, (c) => c.leaderElection.leaseNamespace, 'karpenter'],
    ['log level case-insensitive', ['--log-level', 'DEBUG'], {}, (c) => c.logLevel, 'debug'],
    [
      'extender TLS',
      ['--extender-cert-file', '/c', '--extender-key-file', '/k'],
      {},
      (c) => c.extender.tls,
      { certFile: '/c', keyFile: '/k' },
    ],
    ['compound duration', ['--gc-interval', '1m30s'], {}, (c) => c.garbageCollection.intervalMs, 90_000],
  ])('%s', (_name, argv, env, pick, expected) => {
    expect(pick(parseOperatorOptions(argv, { ...cluster, ...env }))).toEqual(expected);
  });
});

describe('parseOperatorOptions errors name the source, the value and what is accepted', () => {
  it.each<[string, string[], Record<string, string>, RegExp]>([
    ['bad port', ['--webhook-port', '99999'], {}, /--webhook-port is "99999"; accepted: a port number from 0 to 65535/],
    [
      'bad env duration',
      [],
      { BATCH_MAX_DURATION: 'ten seconds' },
      /BATCH_MAX_DURATION is "ten seconds"; accepted: a duration such as 500ms/,
    ],
    ['zero interval', ['--disruption-interval', '0'], {}, /--disruption-interval is "0"; accepted: a duration greater than 0/],
    [
      'max below idle',
      ['--batch-idle-duration', '5s', '--batch-max-duration', '1s'],
      {},
      /--batch-max-duration is "1s"; accepted: a duration at least the batch idle duration \(5s\)/,
    ],
    ['bad boolean', [], { LEADER_ELECT: 'maybe' }, /LEADER_ELECT is "maybe"; accepted: true or false/],
    ['bad log level', ['--log-level', 'trace'], {}, /--log-level is "trace"; accepted: debug, info, warn, error/],
    ['bad lease name', ['--leader-election-name', 'Bad_Name'], {}, /--leader-election-name is "Bad_Name"; accepted: a lowercase DNS name/],
    [
      'renew >= lease',
      ['--leader-election-renew-deadline', '20s'],
      {},
      /--leader-election-lease-duration \(default\) is "15s"; accepted: a duration longer than the renew deadline \(20000ms\)/,
    ],
    [
      'retry too long',
      ['--leader-election-retry-period', '9s'],
      {},
      /--leader-election-renew-deadline \(default\) is "10s"; accepted: a duration longer than 1.2 × the retry period/,
    ],
    ['missing value', ['--metrics-port'], {}, /--metrics-port is ""; accepted: a value after the flag/],
    [
      'request budget not a quantity',
      ['--request-bytes-in-flight', 'lots'],
      {},
      /--request-bytes-in-flight is "lots"; accepted: a byte quantity from 1Mi to 1024Mi, such as 16Mi/,
    ],
    ['request budget too small', [], { REQUEST_BYTES_IN_FLIGHT: '512Ki' }, /REQUEST_BYTES_IN_FLIGHT is "512Ki"; accepted: a byte quantity/],
    [
      'request budget fractional bytes',
      [],
      { REQUEST_BYTES_IN_FLIGHT: '1.5' },
      /REQUEST_BYTES_IN_FLIGHT is "1.5"; accepted: a byte quantity/,
    ],
    [
      'half TLS pair',
      ['--extender-cert-file', '/c'],
      {},
      /--extender-key-file is ""; accepted: a file path, given together with --extender-cert-file/,
    ],
    ['bad SCW URL', [], { ...scw, SCW_API_URL: 'ftp://x' }, /SCW_API_URL is "ftp:\/\/x"; accepted: an http:\/\/ or https:\/\/ URL/],
    [
      'bad OVH endpoint',
      [],
      { OVH_ENDPOINT: 'ovh-mars', OVH_APPLICATION_KEY: 'a', OVH_APPLICATION_SECRET: 's', OVH_CONSUMER_KEY: 'c' },
      /OVH_ENDPOINT is "ovh-mars"; accepted: one of ovh-eu/,
    ],
  ])('%s', (_name, argv, env, message) => {
    expect(() => parseOperatorOptions(argv, { ...cluster, ...env })).toThrow(InvalidOptionError);
    expect(() => parseOperatorOptions(argv, { ...cluster, ...env })).toThrow(message);
  });

  it('rejects an unknown flag and lists the accepted ones', () => {
    expect(() => parseOperatorOptions(['--webhook-prot', '1'], cluster)).toThrow(UnknownOptionError);
    expect(() => parseOperatorOptions(['--webhook-prot', '1'], cluster)).toThrow(
      /unknown flag --webhook-prot; accepted: --kubeconfig, .*--webhook-port/,
    );
  });

  it('names missing credentials of a half-configured cloud', () => {
    const env = { ...cluster, OSC_ACCESS_KEY: 'AK', OSC_REGION: 'eu-west-2' };
    expect(() => parseOperatorOptions([], env)).toThrow(IncompleteCloudCredentialsError);
    expect(() => parseOperatorOptions([], env)).toThrow(
      'outscale credentials are incomplete: OSC_ACCESS_KEY, OSC_REGION set but OSC_SECRET_KEY missing',
    );
  });
});

describe("the cluster name is required: two clusters sharing a default would garbage-collect each other's instances", () => {
  it('refuses to start without one, naming the flag and the variable', () => {
    expect(() => parseOperatorOptions([], {})).toThrow(InvalidOptionError);
    expect(() => parseOperatorOptions([], {})).toThrow(
      /--cluster-name \/ CLUSTER_NAME is ""; accepted: this cluster's name, unique among the clusters sharing a cloud project/,
    );
    expect(() => parseOperatorOptions([], { CLUSTER_NAME: '  ' })).toThrow(/CLUSTER_NAME is " {2}"/);
  });

  it('takes it from the flag or the variable', () => {
    expect(parseOperatorOptions(['--cluster-name', 'prod-par'], {}).clusterName).toBe('prod-par');
    expect(parseOperatorOptions([], { CLUSTER_NAME: 'staging.eu' }).clusterName).toBe('staging.eu');
  });

  it.each([
    ['upper case', 'Prod'],
    ['a comma (Scaleway tags are comma-separated)', 'a,b'],
    ['longer than a label value (63)', 'a'.repeat(64)],
  ])('refuses %s', (_name, value) => {
    expect(() => parseOperatorOptions(['--cluster-name', value], {})).toThrow(
      new RegExp(`--cluster-name is "${value}"; accepted: a lowercase DNS label of at most 63 characters`),
    );
  });
});

describe('cloud settings', () => {
  it('reads the three clouds with their overrides', () => {
    const config = parseOperatorOptions([], {
      ...cluster,
      ...scw,
      SCW_DEFAULT_REGION: 'nl-ams',
      SCW_API_URL: 'http://127.0.0.1:1234/',
      OSC_ACCESS_KEY: 'AK',
      OSC_SECRET_KEY: 'SK',
      OSC_REGION: 'eu-west-2',
      OSC_ENDPOINT_API: 'http://127.0.0.1:5678',
      OVH_ENDPOINT: 'ovh-eu',
      OVH_APPLICATION_KEY: 'ak',
      OVH_APPLICATION_SECRET: 'as',
      OVH_CONSUMER_KEY: 'ck',
    });
    expect(config.clouds.scaleway).toEqual({
      accessKey: scw.SCW_ACCESS_KEY,
      secretKey: scw.SCW_SECRET_KEY,
      projectId: scw.SCW_DEFAULT_PROJECT_ID,
      region: 'nl-ams',
      apiUrl: 'http://127.0.0.1:1234',
    });
    expect(config.clouds.outscale).toEqual({ accessKey: 'AK', secretKey: 'SK', region: 'eu-west-2', endpoint: 'http://127.0.0.1:5678' });
    expect(config.clouds.ovhcloud).toEqual({ endpoint: 'ovh-eu', applicationKey: 'ak', applicationSecret: 'as', consumerKey: 'ck' });
  });

  it('defaults OVH_ENDPOINT to ovh-eu and reads the OVH defaults for NodeClasses', () => {
    const config = parseOperatorOptions([], {
      ...cluster,
      OVH_APPLICATION_KEY: 'ak',
      OVH_APPLICATION_SECRET: 'as',
      OVH_CONSUMER_KEY: 'ck',
      OVH_SERVICE_NAME: '0123456789abcdef0123456789abcdef',
      OVH_REGION: 'EU-WEST-PAR',
    });
    expect(config.clouds.ovhcloud).toEqual({
      endpoint: 'ovh-eu',
      applicationKey: 'ak',
      applicationSecret: 'as',
      consumerKey: 'ck',
      serviceName: '0123456789abcdef0123456789abcdef',
      region: 'EU-WEST-PAR',
    });
  });

  it('treats empty variables as unset', () => {
    expect(parseOperatorOptions([], { ...cluster, SCW_ACCESS_KEY: '', OSC_REGION: ' ' }).clouds).toEqual({});
  });
});

describe('parseDurationMs', () => {
  it('adds the parts of any Go-style duration', () => {
    fc.assert(
      fc.property(fc.nat(48), fc.nat(59), fc.nat(59), fc.nat(999), (h, m, s, ms) => {
        const text = `${h}h${m}m${s}s${ms}ms`;
        expect(parseDurationMs('X', text)).toBe(((h * 60 + m) * 60 + s) * 1000 + ms);
      }),
    );
  });

  it.each(['', '10', 's', '1d', '1s2', '-1s'])('rejects %j', (text) => {
    expect(() => parseDurationMs('X', text)).toThrow(InvalidOptionError);
  });
});

describe('which Secrets NodeClasses may reference', () => {
  it("defaults to the operator's namespace and the karpenter-eu.io/nodeclass-secret=true label, forbidding no name", () => {
    expect(parseOperatorOptions([], { ...cluster, POD_NAMESPACE: 'karpenter' }).nodeClassSecrets).toEqual({
      namespaces: ['karpenter'],
      label: { key: 'karpenter-eu.io/nodeclass-secret', value: 'true' },
      forbidden: [],
    });
  });

  it("reads namespaces, label and the operator's own credentials Secrets (in its namespace) from flags or env", () => {
    const config = parseOperatorOptions(['--nodeclass-secret-label', 'example.com/for-nodes=yes'], {
      ...cluster,
      POD_NAMESPACE: 'karpenter',
      NODECLASS_SECRET_NAMESPACES: 'karpenter, node-bootstrap',
      OPERATOR_CREDENTIALS_SECRETS: 'ovh-credentials,scaleway-credentials',
    });
    expect(config.nodeClassSecrets).toEqual({
      namespaces: ['karpenter', 'node-bootstrap'],
      label: { key: 'example.com/for-nodes', value: 'yes' },
      forbidden: [
        { namespace: 'karpenter', name: 'ovh-credentials' },
        { namespace: 'karpenter', name: 'scaleway-credentials' },
      ],
    });
  });

  it.each([
    ['a label without a value', { NODECLASS_SECRET_LABEL: 'karpenter-eu.io/nodeclass-secret' }, 'NODECLASS_SECRET_LABEL'],
    ['a label with two =', { NODECLASS_SECRET_LABEL: 'a=b=c' }, 'NODECLASS_SECRET_LABEL'],
    ['a namespace that is not a DNS name', { NODECLASS_SECRET_NAMESPACES: 'Kube_System' }, 'NODECLASS_SECRET_NAMESPACES'],
  ])('refuses %s, naming the variable', (_name, env, source) => {
    expect(() => parseOperatorOptions([], { ...cluster, ...env })).toThrow(InvalidOptionError);
    expect(() => parseOperatorOptions([], { ...cluster, ...env })).toThrow(source);
  });
});

describe('feature gates (upstream spelling: Name=true,Other=false)', () => {
  it('turns NodeRepair off by default, on from the flag or FEATURE_GATES', () => {
    expect(parseOperatorOptions([], cluster).featureGates).toEqual({
      nodeRepair: false,
      nodeOverlay: false,
      dynamicResourceAllocation: false,
    });
    expect(parseOperatorOptions(['--feature-gates', 'NodeRepair=true'], cluster).featureGates).toEqual({
      nodeRepair: true,
      nodeOverlay: false,
      dynamicResourceAllocation: false,
    });
    expect(parseOperatorOptions([], { ...cluster, FEATURE_GATES: ' NodeRepair = true ,' }).featureGates).toEqual({
      nodeRepair: true,
      nodeOverlay: false,
      dynamicResourceAllocation: false,
    });
    expect(
      parseOperatorOptions(['--feature-gates', 'NodeRepair=false'], { ...cluster, FEATURE_GATES: 'NodeRepair=true' }).featureGates,
    ).toEqual({ nodeRepair: false, nodeOverlay: false, dynamicResourceAllocation: false });
  });

  it('turns NodeOverlay off by default (alpha, as upstream), on from the flag or FEATURE_GATES', () => {
    expect(parseOperatorOptions(['--feature-gates', 'NodeOverlay=true'], cluster).featureGates).toEqual({
      nodeRepair: false,
      nodeOverlay: true,
      dynamicResourceAllocation: false,
    });
    expect(parseOperatorOptions([], { ...cluster, FEATURE_GATES: 'NodeRepair=true,NodeOverlay=true' }).featureGates).toEqual({
      nodeRepair: true,
      nodeOverlay: true,
      dynamicResourceAllocation: false,
    });
  });

  it('turns DynamicResourceAllocation off by default (pods with resource claims ignored, as upstream), on from the flag', () => {
    expect(parseOperatorOptions(['--feature-gates', 'DynamicResourceAllocation=true'], cluster).featureGates).toEqual({
      nodeRepair: false,
      nodeOverlay: false,
      dynamicResourceAllocation: true,
    });
  });

  it.each<[string, string, RegExp]>([
    [
      'an unknown gate',
      'SpotToSpotConsolidation=true',
      /FEATURE_GATES is "SpotToSpotConsolidation=true"; accepted: comma-separated Name=true\|false, Name one of NodeRepair/,
    ],
    ['a gate without a value', 'NodeRepair', /FEATURE_GATES is "NodeRepair"; accepted: comma-separated Name=true\|false/],
    ['a value that is not a boolean', 'NodeRepair=on', /FEATURE_GATES \(NodeRepair\) is "on"; accepted: true or false/],
  ])('refuses %s, naming the variable, the value and what is accepted', (_what, value, message) => {
    expect(() => parseOperatorOptions([], { ...cluster, FEATURE_GATES: value })).toThrow(InvalidOptionError);
    expect(() => parseOperatorOptions([], { ...cluster, FEATURE_GATES: value })).toThrow(message);
  });
});

describe("the service's own certificates (--cert-secret)", () => {
  const own = ['--cert-secret=karpenter-eu-cert', '--cert-service=karpenter-eu', '--leader-election-namespace=karpenter'];

  it('are off by default: the webhooks serve the certificate files', () => {
    expect(parseOperatorOptions([], cluster).certificates).toBeUndefined();
  });

  it('name the Secret in the service namespace, the Service names, the CA lifetime and only the webhook configurations given', () => {
    const config = parseOperatorOptions([...own, '--cert-ca-validity=8760h', '--cert-validating-webhooks=a, b'], cluster);
    expect(config.certificates).toEqual({
      secret: { namespace: 'karpenter', name: 'karpenter-eu-cert' },
      dnsNames: ['karpenter-eu.karpenter.svc', 'karpenter-eu', 'karpenter-eu.karpenter', 'karpenter-eu.karpenter.svc.cluster.local'],
      caValidityDays: 365,
      webhookConfigurations: { mutating: [], validating: ['a', 'b'] },
    });
  });

  it.each([
    [
      ['--cert-secret=s'],
      {},
      '--cert-service / CERT_SERVICE is ""; accepted: the Service name the certificate is for, required with --cert-secret',
    ],
    [
      [...own, '--webhook-cert-file=/tls/tls.crt'],
      {},
      '--webhook-cert-file is "/tls/tls.crt"; accepted: no certificate file together with --cert-secret',
    ],
    [
      own,
      { EXTENDER_CERT_FILE: '/tls/tls.crt', EXTENDER_KEY_FILE: '/tls/tls.key' },
      'EXTENDER_CERT_FILE is "/tls/tls.crt"; accepted: no certificate file together with --cert-secret',
    ],
    [[...own, '--cert-ca-validity=2000h'], {}, '--cert-ca-validity is "2000h"; accepted: a duration of at least 4320h'],
    [[...own, '--cert-mutating-webhooks=Bad_Name'], {}, '--cert-mutating-webhooks is "Bad_Name"; accepted: a lowercase DNS name'],
  ] as const)('refuse %j %j naming the option and what is accepted', (argv, env, message) => {
    expect(() => parseOperatorOptions(argv, { ...cluster, ...env })).toThrow(InvalidOptionError);
    expect(() => parseOperatorOptions(argv, { ...cluster, ...env })).toThrow(message);
  });
});
