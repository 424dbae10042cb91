import { describe, expect, it } from 'vitest';
import { claimNamesOfPod, volumeDetachment, type VolumeAttachmentFacts } from '../../../../src/domain/termination/index.js';

const va = (name: string, nodeName: string, persistentVolumeName?: string): VolumeAttachmentFacts => ({
  name,
  nodeName,
  ...(persistentVolumeName ? { persistentVolumeName } : {}),
});

describe('volumeDetachment', () => {
  const base = { nodeName: 'n1', volumesOfRemainingPods: new Set<string>(), now: 1_000 };

  it.each([
    ['no attachments', [], {}, { kind: 'detached' }],
    ["only other nodes' attachments", [va('va-x', 'n2', 'pv-x')], {}, { kind: 'detached' }],
    [
      'an attachment of the node',
      [va('va-b', 'n1', 'pv-b'), va('va-a', 'n1', 'pv-a')],
      {},
      { kind: 'waiting', attachments: ['va-a', 'va-b'] },
    ],
    ['an inline volume (no PV name) is waited for', [va('va-inline', 'n1')], {}, { kind: 'waiting', attachments: ['va-inline'] }],
    [
      'the volume of a pod that stays on the node is not waited for',
      [va('va-logs', 'n1', 'pv-logs')],
      { volumesOfRemainingPods: new Set(['pv-logs']) },
      { kind: 'detached' },
    ],
    [
      'before the grace period deadline',
      [va('va-a', 'n1', 'pv-a')],
      { terminationDeadline: 1_001 },
      { kind: 'waiting', attachments: ['va-a'] },
    ],
    [
      'at the grace period deadline',
      [va('va-a', 'n1', 'pv-a')],
      { terminationDeadline: 1_000 },
      { kind: 'deadline-passed', attachments: ['va-a'] },
    ],
  ] as const)('%s', (_label, attachments, extra, expected) => {
    expect(volumeDetachment({ ...base, ...extra, attachments })).toEqual(expected);
  });
});

describe('claimNamesOfPod', () => {
  it('names claims by reference and generic ephemeral volumes as <pod>-<volume>; ignores other volumes', () => {
    const pod = {
      metadata: { name: 'db-0' },
      spec: {
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } },
          { name: 'scratch', ephemeral: { volumeClaimTemplate: {} } },
          { name: 'config', configMap: { name: 'c' } },
        ],
      },
    };
    expect(claimNamesOfPod(pod)).toEqual(['data-db-0', 'db-0-scratch']);
    expect(claimNamesOfPod({})).toEqual([]);
  });
});
