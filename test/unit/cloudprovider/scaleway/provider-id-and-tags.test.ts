import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProviderID, parseProviderID, tryParseProviderID } from '../../../../src/cloudprovider/scaleway/provider-id.js';
import { InvalidTagError, launchTags, nodeClaimLookupTags, tag, tagValue } from '../../../../src/cloudprovider/scaleway/tags.js';

const zone = fc.constantFrom('fr-par-1', 'fr-par-2', 'nl-ams-3', 'pl-waw-2');

describe('Scaleway providerIDs', () => {
  it('format and parse round-trip', () => {
    fc.assert(
      fc.property(zone, fc.uuid(), (z, id) => {
        expect(parseProviderID(formatProviderID({ zone: z, id }))).toEqual({ zone: z, id });
      }),
    );
  });

  it.each(['aws:///eu-west-2a/i-1', 'scaleway://instance/fr-par/abc', 'openstack:///1234', 'scaleway://instance/fr-par-1/not-a-uuid', ''])(
    'rejects %j',
    (value) => {
      expect(tryParseProviderID(value)).toBeUndefined();
      expect(() => parseProviderID(value)).toThrow(/accepted: scaleway:\/\/instance\/<zone>\/<server uuid>/);
    },
  );
});

describe('Scaleway server tags', () => {
  it('launch tags identify cluster, NodeClaim, NodePool, NodeClass and drift fingerprints', () => {
    const tags = launchTags({
      clusterName: 'prod',
      nodeClaimName: 'default-x1',
      nodeClaimUID: 'u-1',
      nodePoolName: 'default',
      nodeClassName: 'gpu',
      image: 'ubuntu_jammy',
      userDataHash: 'abc',
      extra: { team: 'ml' },
    });
    expect(tags).toEqual([
      'karpenter-eu.io/cluster=prod',
      'karpenter.sh/nodeclaim=default-x1',
      'karpenter-eu.io/nodeclass=gpu',
      'karpenter-eu.io/image=ubuntu_jammy',
      'karpenter-eu.io/userdata-hash=abc',
      'karpenter-eu.io/nodeclaim-uid=u-1',
      'karpenter.sh/nodepool=default',
      'team=ml',
    ]);
    expect(tagValue(tags, 'karpenter.sh/nodeclaim')).toBe('default-x1');
  });

  it('looks a NodeClaim up by uid when it has one, by name otherwise', () => {
    expect(nodeClaimLookupTags('c', { name: 'n', uid: 'u' })).toEqual(['karpenter-eu.io/cluster=c', 'karpenter-eu.io/nodeclaim-uid=u']);
    expect(nodeClaimLookupTags('c', { name: 'n' })).toEqual(['karpenter-eu.io/cluster=c', 'karpenter.sh/nodeclaim=n']);
  });

  it('refuses commas, which would split a tags filter', () => {
    expect(() => tag('team', 'a,b')).toThrow(InvalidTagError);
  });

  it('tagValue reads back any value written with tag()', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z./-]{0,20}$/), fc.stringMatching(/^[^,]{0,30}$/), (key, value) => {
        expect(tagValue(['other=1', tag(key, value)], key)).toBe(key === 'other' ? '1' : value);
      }),
    );
  });
});
