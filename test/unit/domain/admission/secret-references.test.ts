import { describe, expect, it } from 'vitest';
import { checkNodeClass } from '../../../../src/domain/admission/rules/nodeclasses.js';
import type { KubeObject } from '../../../../src/domain/admission/types.js';
import { NodeClassSecretLabel, type SecretAccessPolicy } from '../../../../src/domain/secrets/secret-access.js';
import { context, ovhClass } from './fixtures.js';

const policy: SecretAccessPolicy = {
  namespaces: ['karpenter'],
  label: NodeClassSecretLabel,
  forbidden: [{ namespace: 'karpenter', name: 'ovh-credentials' }],
};
const withPolicy = (secretAccess: SecretAccessPolicy | undefined) =>
  context([], { defaults: { gpuTaint: true, globalCredentials: {}, ...(secretAccess ? { secretAccess } : {}) } });

const scaleway = (tokenSecretRef: Record<string, string>): KubeObject => ({
  apiVersion: 'karpenter.scaleway.sh/v1alpha1',
  kind: 'ScalewayNodeClass',
  metadata: { name: 'scw' },
  spec: {
    credentialsSecretRef: { name: 'scw-keys', namespace: 'karpenter' },
    join: { apiServerEndpoint: 'https://k8s.example:6443', tokenSecretRef },
  },
});
const outscale = (secretRef: Record<string, string>): KubeObject => ({
  apiVersion: 'karpenter.outscale.sh/v1alpha1',
  kind: 'OutscaleNodeClass',
  metadata: { name: 'osc' },
  spec: { region: 'eu-west-2', credentialsSecretRef: { name: 'osc-keys', namespace: 'karpenter' }, userData: { secretRef } },
});

describe('NodeClass Secret references at admission', () => {
  it("admits the operator's own credentials Secret as credentialsSecretRef, standing for the service's credentials (seed 002 as written)", () => {
    const withGlobal = context([], { defaults: { gpuTaint: true, globalCredentials: { ovhcloud: true }, secretAccess: policy } });
    expect(checkNodeClass(ovhClass('default'), withGlobal).violations).toEqual([]);
  });

  it("denies the operator's own credentials Secret as credentialsSecretRef when the service has no credentials of that cloud", () => {
    expect(checkNodeClass(ovhClass('default'), withPolicy(policy)).violations).toEqual([
      {
        path: 'spec.credentialsSecretRef',
        message:
          "Forbidden: Secret karpenter/ovh-credentials holds the operator's own cloud credentials, which a NodeClass may only name to use the service's ovhcloud credentials, and the service has none configured; reference a Secret of your own",
      },
    ]);
  });

  it("denies the operator's own credentials Secret as a join token or user data Secret, whatever the service's credentials", () => {
    const withGlobal = context([], {
      defaults: { gpuTaint: true, globalCredentials: { scaleway: true, ovhcloud: true }, secretAccess: policy },
    });
    const scw = checkNodeClass(scaleway({ name: 'ovh-credentials', namespace: 'karpenter', key: 'applicationSecret' }), withGlobal);
    expect(scw.violations).toEqual([
      {
        path: 'spec.join.tokenSecretRef',
        message: expect.stringContaining("Secret karpenter/ovh-credentials holds the operator's own cloud credentials") as unknown,
      },
    ]);
    const osc = checkNodeClass(outscale({ name: 'ovh-credentials', namespace: 'karpenter', key: 'applicationSecret' }), withGlobal);
    expect(osc.violations.map((v) => v.path)).toEqual(['spec.userData.secretRef']);
  });

  it('denies Secret references outside the allowed namespaces, naming the namespaces accepted and the option', () => {
    const findings = checkNodeClass(outscale({ name: 'db-password', namespace: 'payments', key: 'password' }), withPolicy(policy));
    expect(findings.violations).toEqual([
      {
        path: 'spec.userData.secretRef',
        message:
          'Forbidden: Secret payments/db-password is in a namespace NodeClasses may not read from; accepted namespaces: "karpenter" (option --nodeclass-secret-namespaces)',
      },
    ]);
  });

  it('admits references to other Secrets of the allowed namespaces (their label is checked when they are read)', () => {
    expect(
      checkNodeClass(scaleway({ name: 'bootstrap-token', namespace: 'karpenter', key: 'token' }), withPolicy(policy)).violations,
    ).toEqual([]);
  });

  it('checks nothing without a policy (offline validate knows no operator configuration)', () => {
    expect(checkNodeClass(ovhClass('default'), withPolicy(undefined)).violations).toEqual([]);
  });
});
