/** An extender as KubeSchedulerConfiguration `extenders[]` declares it (kubescheduler.config.k8s.io/v1). */
export interface ExtenderConfig {
  /** e.g. `https://127.0.0.1:8443/scheduler`; verbs are appended after a `/`. */
  urlPrefix: string;
  filterVerb?: string;
  prioritizeVerb?: string;
  /** Multiplies prioritize scores (required > 0 with a prioritizeVerb). */
  weight?: number;
  /** When true only NodeNames are sent (the extender keeps its own node cache); else the full Nodes list. */
  nodeCacheCapable?: boolean;
  /** A failing ignorable extender is skipped instead of failing the scheduling cycle. */
  ignorable?: boolean;
  /** Default 5s, as kube-scheduler's DefaultExtenderTimeout. */
  httpTimeoutMs?: number;
  /** When set, only pods requesting one of these resources are sent to the extender. */
  managedResources?: Array<{ name: string; ignoredByScheduler?: boolean }>;
  /** caData: the PEM itself (scheduler-configuration.ts decodes the YAML's base64). */
  tlsConfig?: { insecure?: boolean; caData?: string; serverName?: string };
}

export class ExtenderConfigError extends Error {
  constructor(message: string) {
    super(`validating extender: ${message}`);
    this.name = 'ExtenderConfigError';
  }
}

/** The checks kube-scheduler's config validation makes on one extender. */
export function validateExtenderConfig(config: ExtenderConfig): void {
  if (!config.urlPrefix) throw new ExtenderConfigError('urlPrefix is required');
  if (!/^https?:\/\//.test(config.urlPrefix))
    throw new ExtenderConfigError(`urlPrefix "${config.urlPrefix}" must be an http:// or https:// URL`);
  if (config.prioritizeVerb && !(config.weight !== undefined && config.weight > 0)) {
    throw new ExtenderConfigError(
      `weight ${String(config.weight)} is invalid: an extender with a prioritizeVerb must have a positive weight applied to it`,
    );
  }
}
