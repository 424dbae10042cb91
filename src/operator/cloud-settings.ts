/**
 * The operator-wide cloud accounts, read from each cloud's usual environment variables. A cloud whose
 * variables are all unset is simply not configured; a cloud with some but not all of them is an error
 * naming the missing ones (a half-configured account fails at start, not on the first launch).
 */
import { InvalidOptionError, parseUrl } from './option-values.js';

export interface OvhSettings {
  /** `ovh-eu`, `ovh-ca`, `ovh-us`, … or a full API URL (an emulator on loopback). */
  endpoint: string;
  applicationKey: string;
  applicationSecret: string;
  consumerKey: string;
  /** Operator-wide defaults for OVHNodeClasses that leave them unset (OVH_SERVICE_NAME, OVH_KUBE_ID, OVH_REGION). */
  serviceName?: string;
  kubeId?: string;
  region?: string;
}

export interface ScalewaySettings {
  accessKey: string;
  secretKey: string;
  projectId: string;
  /** `fr-par`, `nl-ams`, `pl-waw`. */
  region: string;
  /** Overrides `https://api.scaleway.com`. */
  apiUrl?: string;
}

export interface OutscaleSettings {
  accessKey: string;
  secretKey: string;
  /** `eu-west-2`, `cloudgouv-eu-west-1`, … */
  region: string;
  /** Overrides `https://api.<region>.outscale.com`. */
  endpoint?: string;
}

export interface CloudSettings {
  ovhcloud?: OvhSettings;
  scaleway?: ScalewaySettings;
  outscale?: OutscaleSettings;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class IncompleteCloudCredentialsError extends Error {
  constructor(cloud: string, missing: readonly string[], present: readonly string[]) {
    super(
      `parsing options: ${cloud} credentials are incomplete: ${present.join(', ')} set but ${missing.join(', ')} missing; ` +
        `accepted: all of ${[...present, ...missing].join(', ')}, or none of them`,
    );
    this.name = 'IncompleteCloudCredentialsError';
  }
}

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** Reads the required variables of one cloud: all → the values, none → undefined, some → an error. */
function required(env: Env, cloud: string, names: readonly string[]): string[] | undefined {
  const present = names.filter((n) => value(env, n) !== undefined);
  if (present.length === 0) return undefined;
  const missing = names.filter((n) => value(env, n) === undefined);
  if (missing.length > 0) throw new IncompleteCloudCredentialsError(cloud, missing, present);
  return names.map((n) => value(env, n) as string);
}

export const OvhEnv = ['OVH_APPLICATION_KEY', 'OVH_APPLICATION_SECRET', 'OVH_CONSUMER_KEY'] as const;
export const ScalewayEnv = ['SCW_ACCESS_KEY', 'SCW_SECRET_KEY', 'SCW_DEFAULT_PROJECT_ID'] as const;
export const OutscaleEnv = ['OSC_ACCESS_KEY', 'OSC_SECRET_KEY', 'OSC_REGION'] as const;

const ovhEndpointNames = new Set(['ovh-eu', 'ovh-ca', 'ovh-us', 'kimsufi-eu', 'kimsufi-ca', 'soyoustart-eu', 'soyoustart-ca']);

function parseOvh(env: Env): OvhSettings | undefined {
  const values = required(env, 'ovhcloud', OvhEnv);
  if (!values) return undefined;
  const [applicationKey, applicationSecret, consumerKey] = values as [string, string, string];
  const endpoint = value(env, 'OVH_ENDPOINT') ?? 'ovh-eu';
  const resolved = ovhEndpointNames.has(endpoint) ? endpoint : parseOvhEndpointUrl(endpoint);
  const optional = { serviceName: value(env, 'OVH_SERVICE_NAME'), kubeId: value(env, 'OVH_KUBE_ID'), region: value(env, 'OVH_REGION') };
  const defaults = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) as Pick<
    OvhSettings,
    'serviceName' | 'kubeId' | 'region'
  >;
  return { endpoint: resolved, applicationKey, applicationSecret, consumerKey, ...defaults };
}

function parseOvhEndpointUrl(endpoint: string): string {
  try {
    return parseUrl('OVH_ENDPOINT', endpoint);
  } catch {
    throw new InvalidOptionError('OVH_ENDPOINT', endpoint, `one of ${[...ovhEndpointNames].join(', ')} or an https:// API URL`);
  }
}

function parseScaleway(env: Env): ScalewaySettings | undefined {
  const values = required(env, 'scaleway', ScalewayEnv);
  if (!values) return undefined;
  const [accessKey, secretKey, projectId] = values as [string, string, string];
  const region = value(env, 'SCW_DEFAULT_REGION') ?? 'fr-par';
  if (!/^[a-z]{2}-[a-z]{3}$/.test(region))
    throw new InvalidOptionError('SCW_DEFAULT_REGION', region, 'a Scaleway region such as fr-par, nl-ams or pl-waw');
  const apiUrl = value(env, 'SCW_API_URL');
  return { accessKey, secretKey, projectId, region, ...(apiUrl ? { apiUrl: parseUrl('SCW_API_URL', apiUrl) } : {}) };
}

function parseOutscale(env: Env): OutscaleSettings | undefined {
  const values = required(env, 'outscale', OutscaleEnv);
  if (!values) return undefined;
  const [accessKey, secretKey, region] = values as [string, string, string];
  if (!/^[a-z0-9-]+$/.test(region))
    throw new InvalidOptionError('OSC_REGION', region, 'an Outscale region such as eu-west-2 or cloudgouv-eu-west-1');
  const endpoint = value(env, 'OSC_ENDPOINT_API');
  return { accessKey, secretKey, region, ...(endpoint ? { endpoint: parseUrl('OSC_ENDPOINT_API', endpoint) } : {}) };
}

export function parseCloudSettings(env: Env): CloudSettings {
  const ovhcloud = parseOvh(env);
  const scaleway = parseScaleway(env);
  const outscale = parseOutscale(env);
  return { ...(ovhcloud ? { ovhcloud } : {}), ...(scaleway ? { scaleway } : {}), ...(outscale ? { outscale } : {}) };
}
