/** Per-request facts the write path needs. */
import { type UserInfo } from './admission/admission-types.js';

export interface WriteContext {
  dryRun: boolean;
  userInfo: UserInfo;
  /** Warnings collected from admission, sent back as `Warning:` headers. */
  warnings: string[];
}

export const adminUser: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

export function systemContext(controller: string): WriteContext {
  return {
    dryRun: false,
    userInfo: {
      username: `system:serviceaccount:kube-system:${controller}`,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    },
    warnings: [],
  };
}
