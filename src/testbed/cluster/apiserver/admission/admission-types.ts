/** What the API server hands to admission for one write, and what comes back. */
import { type KubeObject } from '../kube-object.js';
import { type ResourceType } from '../resource-type.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  type: ResourceType;
  subResource: string;
  name: string;
  namespace: string;
  /** The new object (CREATE/UPDATE), or the subresource body (Eviction, Binding). Null on DELETE. */
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: Record<string, unknown> | null;
  userInfo: UserInfo;
}

export interface AdmissionResult {
  /** The object after mutating webhooks (the input when none mutated). */
  object: KubeObject | null;
  warnings: string[];
}

/** The admission stage of the write path; throws an ApiError to reject. */
export interface Admitter {
  admit(attributes: AdmissionAttributes, phase: 'mutating' | 'validating'): Promise<AdmissionResult>;
}

export const noAdmission: Admitter = {
  admit: (attributes) => Promise.resolve({ object: attributes.object, warnings: [] }),
};
