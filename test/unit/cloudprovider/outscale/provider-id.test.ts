import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProviderId, InvalidProviderIdError, parseProviderId } from '../../../../src/cloudprovider/outscale/provider-id.js';

describe('Outscale providerIDs', () => {
  it.each([
    ['aws:///eu-west-2a/i-0123abcd', { vmId: 'i-0123abcd', subregion: 'eu-west-2a' }],
    ['osc:///cloudgouv-eu-west-1c/i-deadbeef', { vmId: 'i-deadbeef', subregion: 'cloudgouv-eu-west-1c' }],
    ['aws:///i-0123abcd', { vmId: 'i-0123abcd' }],
    ['i-0123abcd', { vmId: 'i-0123abcd' }],
  ])('parses %s', (providerID, expected) => {
    expect(parseProviderId(providerID)).toEqual(expected);
  });

  it.each(['openstack:///1234', 'scaleway://instance/fr-par-1/abc', 'aws:///eu-west-2a/', '', 'aws://eu-west-2a/i-1'])(
    'refuses %j, naming what is accepted',
    (providerID) => {
      expect(() => parseProviderId(providerID)).toThrow(InvalidProviderIdError);
      expect(() => parseProviderId(providerID)).toThrow(/accepted: aws:\/\/\//);
    },
  );

  it('formats as cloud-provider-osc does', () => {
    expect(formatProviderId('eu-west-2b', 'i-12345678')).toBe('aws:///eu-west-2b/i-12345678');
  });

  it('parse inverts format', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('eu-west-2', 'cloudgouv-eu-west-1', 'us-east-2'),
        fc.constantFrom('a', 'b', 'c'),
        fc.stringMatching(/^[0-9a-f]{8}$/),
        (region, letter, hex) => {
          const subregion = `${region}${letter}`;
          expect(parseProviderId(formatProviderId(subregion, `i-${hex}`))).toEqual({ vmId: `i-${hex}`, subregion });
        },
      ),
    );
  });
});
