/**
 * All configuration of `karpenter-eu run`, parsed once at start from flags and environment variables
 * (a flag wins over its variable, the variable over the default) and validated with errors that name the
 * flag or variable, the value and what is accepted. `parseOperatorOptions` is pure; `readOperatorOptions`
 * is the only product code that reads `process.env`.
 */
import { LogLevels, type LogLevel } from '../util/logger.js';
import { type CloudSettings, type Env, parseCloudSettings } from './cloud-settings.js';
import type { SecretAccessPolicy } from '../domain/secrets/secret-access.js';
import {
  InvalidOptionError,
  parseBoolean,
  parseByteSize,
  parseClusterName,
  parseName,
  parsePort,
  parsePositiveDurationMs,
} from './option-values.js';
import { DefaultNodeClassSecretLabel, parseSecretAccess } from './secret-access-options.js';
import { DefaultFeatureGates, type FeatureGates, parseFeatureGates } from './feature-gates.js';
import { type CertificateOptions, parseCertificateOptions } from './certificate-options.js';

export type { CloudSettings, Env, OutscaleSettings, OvhSettings, ScalewaySettings } from './cloud-settings.js';
export { IncompleteCloudCredentialsError } from './cloud-settings.js';
export { InvalidOptionError } from './option-values.js';
export type { FeatureGates } from './feature-gates.js';
export type { CertificateOptions } from './certificate-options.js';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

export interface OperatorConfig {
  /** undefined: in-cluster configuration (service account token). */
  kubeconfigPath?: string;
  /** Tags every instance; the cloud `list` finds this cluster's instances by it. */
  clusterName: string;
  bindAddress: string;
  /** `tls`: the files served, unless `certificates` is set. */
  webhook: { port: number; tls: TlsFiles };
  /** HTTPS when `tls` or `certificates` is set, plain HTTP otherwise. */
  extender: { port: number; tls?: TlsFiles };
  /** Set when the service makes and renews its own certificates; both servers then serve them. */
  certificates?: CertificateOptions;
  metrics: { port: number };
  /**
   * Bytes of request bodies the webhook listener and the extender listener each read at once; beyond it a request
   * is answered 429 with Retry-After, and a single body larger than it 413.
   */
  requestBytesInFlight: number;
  batch: { idleMs: number; maxMs: number };
  disruption: { intervalMs: number; validationDelayMs: number; driftCheckIntervalMs: number };
  garbageCollection: { intervalMs: number };
  leaderElection: {
    enabled: boolean;
    leaseName: string;
    leaseNamespace: string;
    leaseDurationMs: number;
    renewDeadlineMs: number;
    retryPeriodMs: number;
    /** The pod name; `run` appends a random suffix so two processes never share an identity. */
    identity: string;
  };
  logLevel: LogLevel;
  clouds: CloudSettings;
  /** Which Secrets NodeClasses may reference (secret-access-options.ts). */
  nodeClassSecrets: SecretAccessPolicy;
  featureGates: FeatureGates;
}

/**
 * Two listeners full at once stay well inside the chart's 192 MiB heap (512 Mi limit): the in-flight bytes and,
 * parsed, a few times that for the bodies being answered. Fits one largest extender call (16 MiB).
 */
export const DefaultRequestBytesInFlight = '16Mi';

export class UnknownOptionError extends Error {
  constructor(readonly flag: string) {
    super(`parsing options: unknown flag ${flag}; accepted: ${optionTable.map((o) => `--${o.flag}`).join(', ')}`);
    this.name = 'UnknownOptionError';
  }
}

type Kind = 'string' | 'boolean';

interface OptionSpec {
  flag: string;
  env?: string;
  kind: Kind;
  default?: string;
  help: string;
}

/** Every option `run` takes; the help text is generated from this table. */
export const optionTable: readonly OptionSpec[] = [
  { flag: 'kubeconfig', env: 'KUBECONFIG', kind: 'string', help: 'kubeconfig file; in-cluster configuration when unset' },
  {
    flag: 'cluster-name',
    env: 'CLUSTER_NAME',
    kind: 'string',
    help: "required: this cluster's name, unique in its cloud projects; it marks every instance and node pool the service owns, and garbage collection touches no other",
  },
  { flag: 'bind-address', env: 'BIND_ADDRESS', kind: 'string', default: '0.0.0.0', help: 'address the three servers listen on' },
  { flag: 'webhook-port', env: 'WEBHOOK_PORT', kind: 'string', default: '8443', help: 'admission webhook HTTPS port' },
  {
    flag: 'webhook-cert-file',
    env: 'WEBHOOK_CERT_FILE',
    kind: 'string',
    default: '/etc/karpenter-eu/tls/tls.crt',
    help: 'webhook serving certificate (PEM, reloaded on change)',
  },
  {
    flag: 'webhook-key-file',
    env: 'WEBHOOK_KEY_FILE',
    kind: 'string',
    default: '/etc/karpenter-eu/tls/tls.key',
    help: 'webhook serving key (PEM)',
  },
  { flag: 'extender-port', env: 'EXTENDER_PORT', kind: 'string', default: '8444', help: 'scheduler extender port' },
  { flag: 'extender-cert-file', env: 'EXTENDER_CERT_FILE', kind: 'string', help: 'extender serving certificate; plain HTTP when unset' },
  { flag: 'extender-key-file', env: 'EXTENDER_KEY_FILE', kind: 'string', help: 'extender serving key' },
  {
    flag: 'cert-secret',
    env: 'CERT_SECRET',
    kind: 'string',
    help: 'the service makes its own certificates: a CA kept in this Secret of its namespace (created once), serving certificates issued from it and renewed before they expire; the cert files are then not read',
  },
  {
    flag: 'cert-service',
    env: 'CERT_SERVICE',
    kind: 'string',
    help: 'with --cert-secret: the Service the serving certificate is for (<service>.<namespace>.svc)',
  },
  {
    flag: 'cert-ca-validity',
    env: 'CERT_CA_VALIDITY',
    kind: 'string',
    default: '87600h',
    help: 'with --cert-secret: lifetime of the CA it makes; a scheduler pins it, so it is replaced only when a serving certificate no longer fits in it',
  },
  {
    flag: 'cert-mutating-webhooks',
    env: 'CERT_MUTATING_WEBHOOKS',
    kind: 'string',
    help: 'with --cert-secret: comma-separated MutatingWebhookConfigurations whose caBundle the service keeps set to its CA',
  },
  {
    flag: 'cert-validating-webhooks',
    env: 'CERT_VALIDATING_WEBHOOKS',
    kind: 'string',
    help: 'with --cert-secret: comma-separated ValidatingWebhookConfigurations whose caBundle the service keeps set to its CA',
  },
  { flag: 'metrics-port', env: 'METRICS_PORT', kind: 'string', default: '8080', help: '/metrics, /healthz and /readyz port' },
  {
    flag: 'request-bytes-in-flight',
    env: 'REQUEST_BYTES_IN_FLIGHT',
    kind: 'string',
    default: DefaultRequestBytesInFlight,
    help: 'request body bytes the webhook and the extender port each read at once (429 beyond); a body larger than it is refused (413). Below 7Mi the largest UPDATE reviews are refused; below 16Mi, the largest extender calls',
  },
  {
    flag: 'batch-idle-duration',
    env: 'BATCH_IDLE_DURATION',
    kind: 'string',
    default: '1s',
    help: 'a batch of pending pods closes after this long without a new pod',
  },
  {
    flag: 'batch-max-duration',
    env: 'BATCH_MAX_DURATION',
    kind: 'string',
    default: '10s',
    help: 'a batch of pending pods closes after this long at most',
  },
  { flag: 'disruption-interval', env: 'DISRUPTION_INTERVAL', kind: 'string', default: '10s', help: 'pause between disruption passes' },
  {
    flag: 'disruption-validation-delay',
    env: 'DISRUPTION_VALIDATION_DELAY',
    kind: 'string',
    default: '15s',
    help: 'a consolidation decision is re-checked after this long before acting',
  },
  {
    flag: 'drift-check-interval',
    env: 'DRIFT_CHECK_INTERVAL',
    kind: 'string',
    default: '5m',
    help: 'how often each NodeClaim is asked of its cloud whether it drifted',
  },
  {
    flag: 'feature-gates',
    env: 'FEATURE_GATES',
    kind: 'string',
    default: DefaultFeatureGates,
    help:
      "optional features, Name=true|false comma-separated; NodeRepair: replace nodes unhealthy past their cloud's toleration; " +
      'NodeOverlay: apply NodeOverlays (karpenter.sh/v1alpha1) to the instance types the simulation sees; ' +
      'DynamicResourceAllocation: provision for pods with resource claims (resource.k8s.io/v1) by the devices flavors publish',
  },
  { flag: 'gc-interval', env: 'GC_INTERVAL', kind: 'string', default: '2m', help: 'pause between garbage collection passes' },
  { flag: 'leader-elect', env: 'LEADER_ELECT', kind: 'boolean', default: 'true', help: 'run the controllers only while holding the lease' },
  {
    flag: 'leader-election-name',
    env: 'LEADER_ELECTION_NAME',
    kind: 'string',
    default: 'karpenter-eu-leader-election',
    help: 'coordination.k8s.io Lease name',
  },
  { flag: 'leader-election-namespace', env: 'POD_NAMESPACE', kind: 'string', default: 'kube-system', help: 'namespace of the Lease' },
  {
    flag: 'leader-election-lease-duration',
    env: 'LEADER_ELECTION_LEASE_DURATION',
    kind: 'string',
    default: '15s',
    help: 'how long a lease is honoured after its last renewal',
  },
  {
    flag: 'leader-election-renew-deadline',
    env: 'LEADER_ELECTION_RENEW_DEADLINE',
    kind: 'string',
    default: '10s',
    help: 'the leader steps down when it could not renew for this long',
  },
  {
    flag: 'leader-election-retry-period',
    env: 'LEADER_ELECTION_RETRY_PERIOD',
    kind: 'string',
    default: '2s',
    help: 'pause between attempts to acquire or renew',
  },
  { flag: 'leader-election-identity', env: 'POD_NAME', kind: 'string', help: "this replica's name in the Lease (default: HOSTNAME)" },
  { flag: 'log-level', env: 'LOG_LEVEL', kind: 'string', default: 'info', help: `one of ${LogLevels.join(', ')}` },
  {
    flag: 'nodeclass-secret-namespaces',
    env: 'NODECLASS_SECRET_NAMESPACES',
    kind: 'string',
    help: "comma-separated namespaces whose Secrets NodeClasses may reference (default: the operator's namespace)",
  },
  {
    flag: 'nodeclass-secret-label',
    env: 'NODECLASS_SECRET_LABEL',
    kind: 'string',
    default: DefaultNodeClassSecretLabel,
    help: 'key=value label a Secret must carry to be read for a NodeClass',
  },
  {
    flag: 'operator-credentials-secrets',
    env: 'OPERATOR_CREDENTIALS_SECRETS',
    kind: 'string',
    help: "comma-separated Secrets of the operator's namespace holding its own cloud credentials; never readable through a NodeClass (a credentialsSecretRef naming one means these credentials)",
  },
];

const specByFlag = new Map(optionTable.map((o) => [o.flag, o]));

/** `--name value`, `--name=value`, and bare `--name` for booleans. */
function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    const spec = match ? specByFlag.get(match[1] as string) : undefined;
    if (!match || !spec) throw new UnknownOptionError(arg);
    if (match[2] !== undefined) flags.set(spec.flag, match[2]);
    else if (spec.kind === 'boolean' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--'))) flags.set(spec.flag, 'true');
    else if (argv[i + 1] === undefined) throw new InvalidOptionError(`--${spec.flag}`, '', 'a value after the flag');
    else flags.set(spec.flag, argv[++i] as string);
  }
  return flags;
}

/** One resolved raw value and where it came from (for the error message). */
interface Raw {
  value: string;
  source: string;
}

function resolver(flags: Map<string, string>, env: Env): (flag: string) => Raw | undefined {
  return (flag) => {
    const spec = specByFlag.get(flag) as OptionSpec;
    const fromFlag = flags.get(flag);
    if (fromFlag !== undefined) return { value: fromFlag, source: `--${flag}` };
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: spec.env as string };
    return spec.default === undefined ? undefined : { value: spec.default, source: `--${flag} (default)` };
  };
}

function tlsFiles(get: (flag: string) => Raw | undefined, prefix: string): TlsFiles | undefined {
  const cert = get(`${prefix}-cert-file`);
  const key = get(`${prefix}-key-file`);
  if (!cert && !key) return undefined;
  if (!cert || !key) {
    const missing = cert ? `--${prefix}-key-file` : `--${prefix}-cert-file`;
    throw new InvalidOptionError(missing, '', `a file path, given together with ${cert ? cert.source : (key as Raw).source}`);
  }
  return { certFile: cert.value, keyFile: key.value };
}

function logLevel(raw: Raw): LogLevel {
  const level = raw.value.trim().toLowerCase();
  if (!(LogLevels as readonly string[]).includes(level)) throw new InvalidOptionError(raw.source, raw.value, LogLevels.join(', '));
  return level as LogLevel;
}

function checkLeaderTiming(get: (flag: string) => Raw, lease: number, renew: number, retry: number): void {
  if (!(renew > retry * 1.2)) {
    const raw = get('leader-election-renew-deadline');
    throw new InvalidOptionError(raw.source, raw.value, `a duration longer than 1.2 × the retry period (${retry * 1.2}ms)`);
  }
  if (!(lease > renew)) {
    const raw = get('leader-election-lease-duration');
    throw new InvalidOptionError(raw.source, raw.value, `a duration longer than the renew deadline (${renew}ms)`);
  }
}

function leaderElection(get: (flag: string) => Raw | undefined, env: Env): OperatorConfig['leaderElection'] {
  const must = (flag: string): Raw => get(flag) as Raw;
  const duration = (flag: string): number => parsePositiveDurationMs(must(flag).source, must(flag).value);
  const [leaseDurationMs, renewDeadlineMs, retryPeriodMs] = [
    duration('leader-election-lease-duration'),
    duration('leader-election-renew-deadline'),
    duration('leader-election-retry-period'),
  ];
  checkLeaderTiming(must, leaseDurationMs, renewDeadlineMs, retryPeriodMs);
  const identity = get('leader-election-identity')?.value ?? env.HOSTNAME ?? 'karpenter-eu';
  return {
    enabled: parseBoolean(must('leader-elect').source, must('leader-elect').value),
    leaseName: parseName(must('leader-election-name').source, must('leader-election-name').value),
    leaseNamespace: parseName(must('leader-election-namespace').source, must('leader-election-namespace').value),
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
    identity,
  };
}

/** No default: two clusters sharing one would each take the other's instances for leaks. */
function clusterName(raw: Raw | undefined): string {
  if (!raw)
    throw new InvalidOptionError(
      '--cluster-name / CLUSTER_NAME',
      '',
      "this cluster's name, unique among the clusters sharing a cloud project (Helm: controller.clusterName, default ovh.kubeId)",
    );
  return parseClusterName(raw.source, raw.value);
}

function batch(get: (flag: string) => Raw): OperatorConfig['batch'] {
  const idle = get('batch-idle-duration');
  const max = get('batch-max-duration');
  const idleMs = parsePositiveDurationMs(idle.source, idle.value);
  const maxMs = parsePositiveDurationMs(max.source, max.value);
  if (maxMs < idleMs) throw new InvalidOptionError(max.source, max.value, `a duration at least the batch idle duration (${idle.value})`);
  return { idleMs, maxMs };
}

/** Pure: flags (without the command name) and an environment in, a validated configuration out. */
export function parseOperatorOptions(argv: readonly string[], env: Env): OperatorConfig {
  const get = resolver(parseFlags(argv), env);
  const must = (flag: string): Raw => get(flag) as Raw;
  const port = (flag: string): number => parsePort(must(flag).source, must(flag).value);
  const duration = (flag: string): number => parsePositiveDurationMs(must(flag).source, must(flag).value);
  const kubeconfig = get('kubeconfig')?.value.split(':')[0];
  return {
    ...(kubeconfig ? { kubeconfigPath: kubeconfig } : {}),
    clusterName: clusterName(get('cluster-name')),
    bindAddress: must('bind-address').value,
    webhook: { port: port('webhook-port'), tls: tlsFiles(get, 'webhook') as TlsFiles },
    extender: { port: port('extender-port'), ...optional('tls', tlsFiles(get, 'extender')) },
    metrics: { port: port('metrics-port') },
    requestBytesInFlight: parseByteSize(must('request-bytes-in-flight').source, must('request-bytes-in-flight').value, {
      min: 1024 * 1024,
      max: 1024 * 1024 * 1024,
    }),
    batch: batch(must),
    disruption: {
      intervalMs: duration('disruption-interval'),
      validationDelayMs: duration('disruption-validation-delay'),
      driftCheckIntervalMs: duration('drift-check-interval'),
    },
    garbageCollection: { intervalMs: duration('gc-interval') },
    leaderElection: leaderElection(get, env),
    logLevel: logLevel(must('log-level')),
    clouds: parseCloudSettings(env),
    nodeClassSecrets: parseSecretAccess(
      {
        ...optional('namespaces', get('nodeclass-secret-namespaces')),
        label: must('nodeclass-secret-label'),
        ...optional('credentials', get('operator-credentials-secrets')),
      },
      parseName(must('leader-election-namespace').source, must('leader-election-namespace').value),
    ),
    featureGates: parseFeatureGates(must('feature-gates').source, must('feature-gates').value),
    ...optional('certificates', certificates(get)),
  };
}

function certificates(get: (flag: string) => Raw | undefined): CertificateOptions | undefined {
  const namespace = get('leader-election-namespace') as Raw;
  const files = ['webhook-cert-file', 'webhook-key-file', 'extender-cert-file', 'extender-key-file'].map(get);
  return parseCertificateOptions(get, parseName(namespace.source, namespace.value), files);
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The help text of `run`, from the option table. */
export function optionsHelp(): string {
  return optionTable
    .map((o) => `  --${o.flag.padEnd(34)} ${o.help}${o.env ? ` [$${o.env}]` : ''}${o.default ? ` (default ${o.default})` : ''}`)
    .join('\n');
}

/** The one place product code reads the process environment. */
export function readOperatorOptions(argv: readonly string[]): OperatorConfig {
  return parseOperatorOptions(argv, process.env);
}
