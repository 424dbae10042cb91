/** The fields of admissionregistration.k8s.io/v1 webhook configurations the simulator honours. */
import { type LabelSelectorObject } from '../label-selector.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: 'Cluster' | 'Namespaced' | '*';
}

export interface Webhook {
  name: string;
  clientConfig: { url?: string; service?: ServiceReference; caBundle?: string };
  rules?: WebhookRule[];
  failurePolicy?: 'Fail' | 'Ignore';
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  /** CEL expressions that must all be true for the webhook to be called (match-conditions.ts). */
  matchConditions?: { name: string; expression: string }[];
}

export interface WebhookConfiguration {
  metadata: { name?: string };
  webhooks?: Webhook[];
}

/** Turns a service reference into a URL; the test bed maps services to loopback ports. */
export type ServiceResolver = (service: ServiceReference) => string | undefined;
