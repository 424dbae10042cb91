import { describe, expect, it } from 'vitest';
import { checkNodeClass } from '../../../../src/domain/admission/rules/nodeclasses.js';
import type { KubeObject } from '../../../../src/domain/admission/types.js';
import { NodeClassSecretLabel, type SecretAccessPolicy } from '../../../../src/domain/secrets/secret-access.js';
import { context, ovhClass } from './fixtures.js';

const policy: SecretAccessPolicy = { namespaces: ['karpenter'], label: NodeClassSecretLabel, forbidden: [{ namespace: 'karpenter', name: 'ovh-credentials' }] };
const withPolicy = (secretAccess: SecretAccessPolicy | undefined) => context([], { defaults: { gpuTaint: true, globalCredentials: {}, ...(secretAccess ? { secretAccess } : {}) } });

const scaleway = (tokenSecretRef: Record<string, string>): KubeObject => ({
  apiVersion: 'karpenter.scaleway.sh/v1alpha1',
  kind: 'ScalewayNodeClass',
  metadata: { name: 'scw' },
  spec: { credentialsSecretRef: { name: 'scw-keys', namespace: 'karpenter' }, join: { apiServerEndpoint: 'https://k8s.example:6443', tokenSecretRef } },
});
const outscale = (secretRef: Record<string, string>): KubeObject => ({
  apiVersion: 'karpenter.outscale.sh/v1alpha1',
  kind: 'OutscaleNodeClass',
  metadata: { name: 'osc' },
  spec: { region: 'eu-west-2', credentialsSecretRef: { name: 'osc-keys', namespace: 'karpenter' }, userData: { secretRef } },
});

describe('NodeClass Secret references at admission', () => {
  it('denies a NodeClass that names the operator\'s own credentials Secret, whatever the field', () => {
    const ovh = checkNodeClass(ovhClass('default'), withPolicy(policy));
    expect(ovh.violations).toEqual([{ path: 'spec.credentialsSecretRef', message: expect.stringContaining("Secret karpenter/ovh-credentials holds the operator's own cloud credentials") as unknown }]);
    const scw = checkNodeClass(scaleway({ name: 'ovh-credentials', namespace: 'karpenter', key: 'applicationSecret' }), withPolicy(policy));
    expect(scw.violations.map((v) => v.path)).toEqual(['spec.join.tokenSecretRef']);
  });

  it('denies Secret references outside the allowed namespaces, naming the namespaces accepted and the option', () => {
    const findings = checkNodeClass(outscale({ name: 'db-password', namespace: 'payments', key: 'password' }), withPolicy(policy));
    expect(findings.violations).toEqual([
      {
        path: 'spec.userData.secretRef',
        message: 'Forbidden: Secret payments/db-password is in a namespace NodeClasses may not read from; accepted namespaces: "karpenter" (option --nodeclass-secret-namespaces)',
      },
    ]);
  });

  it('admits references to other Secrets of the allowed namespaces (their label is checked when they are read)', () => {
    expect(checkNodeClass(scaleway({ name: 'bootstrap-token', namespace: 'karpenter', key: 'token' }), withPolicy(policy)).violations).toEqual([]);
  });

  it('checks nothing without a policy (offline validate knows no operator configuration)', () => {
    expect(checkNodeClass(ovhClass('default'), withPolicy(undefined)).violations).toEqual([]);
  });
});
