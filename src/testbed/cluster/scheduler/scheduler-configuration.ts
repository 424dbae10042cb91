/**
 * Reads the `extenders[]` of a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as kube-scheduler does,
 * so the simulated scheduler calls an extender with exactly the configuration a user ships:
 * `tlsConfig.caData` is base64 (a Go []byte), `caFile` is read from the scheduler pod's filesystem,
 * `httpTimeout` is a Go duration, and `enableHTTPS` without a CA means an unverified connection (makeTransport in
 * pkg/scheduler/extender.go). The URL's scheme alone decides HTTP or HTTPS, as there.
 */
import { parseDurationMs } from '../../../domain/disruption/duration.js';
import { type ExtenderConfig, ExtenderConfigError } from './extender-config.js';

/** One `extenders[]` entry as written in YAML. */
export interface ExtenderConfigurationEntry {
  urlPrefix: string;
  filterVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  nodeCacheCapable?: boolean;
  ignorable?: boolean;
  httpTimeout?: string;
  enableHTTPS?: boolean;
  managedResources?: Array<{ name: string; ignoredByScheduler?: boolean }>;
  tlsConfig?: { insecure?: boolean; serverName?: string; caData?: string; caFile?: string };
}

export interface SchedulerConfigurationContext {
  /** The scheduler pod's files (its mounted Secrets and ConfigMaps), by absolute path. */
  readFile(path: string): string;
  /** Where the URL's host resolves (cluster DNS); the TLS server name stays the configured one. */
  resolve?(url: URL): URL;
}

function tlsOf(entry: ExtenderConfigurationEntry, context: SchedulerConfigurationContext): ExtenderConfig['tlsConfig'] {
  const tls = entry.tlsConfig ?? {};
  let ca: string | undefined;
  if (tls.caData) ca = Buffer.from(tls.caData, 'base64').toString('utf8');
  else if (tls.caFile) ca = context.readFile(tls.caFile);
  if (tls.caData && !ca?.includes('BEGIN CERTIFICATE'))
    throw new ExtenderConfigError(`tlsConfig.caData of "${entry.urlPrefix}" is not base64 of a PEM certificate`);
  const insecure = tls.insecure === true || (entry.enableHTTPS === true && ca === undefined);
  return { insecure, ...(ca ? { caData: ca } : {}), ...(tls.serverName ? { serverName: tls.serverName } : {}) };
}

function urlOf(entry: ExtenderConfigurationEntry, context: SchedulerConfigurationContext): string {
  if (!context.resolve) return entry.urlPrefix;
  return context.resolve(new URL(entry.urlPrefix)).href.replace(/\/$/, '');
}

export function extenderFromConfiguration(entry: ExtenderConfigurationEntry, context: SchedulerConfigurationContext): ExtenderConfig {
  const { httpTimeout, enableHTTPS: _enableHttps, tlsConfig: _tls, urlPrefix: _url, ...same } = entry;
  return {
    ...same,
    urlPrefix: urlOf(entry, context),
    ...(httpTimeout ? { httpTimeoutMs: parseDurationMs('httpTimeout', httpTimeout) } : {}),
    tlsConfig: tlsOf(entry, context),
  };
}

export function extendersFromConfiguration(
  configuration: { extenders?: ExtenderConfigurationEntry[] },
  context: SchedulerConfigurationContext,
): ExtenderConfig[] {
  return (configuration.extenders ?? []).map((entry) => extenderFromConfiguration(entry, context));
}
