import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { testbedCommands } from '../../../src/testbed/commands.js';

function io(env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t), env } };
}

describe('karpenter-eu run / demo argument handling', () => {
  it('prints the options with their variables and defaults', async () => {
    const { out, io: cli } = io();
    expect(await main(['run', '--help'], cli)).toBe(0);
    expect(out.stdout).toContain('--batch-idle-duration');
    expect(out.stdout).toContain('[$BATCH_IDLE_DURATION] (default 1s)');
  });

  it('exits 2 with the option error before starting anything', async () => {
    const { out, io: cli } = io({ CLUSTER_NAME: 'prod-par', METRICS_PORT: 'eighty' });
    expect(await main(['run'], cli)).toBe(2);
    expect(out.stderr).toBe('error: parsing options: METRICS_PORT is "eighty"; accepted: a port number from 0 to 65535\n');
  });

  it('exits 2 without a cluster name, saying how to give one', async () => {
    const { out, io: cli } = io();
    expect(await main(['run'], cli)).toBe(2);
    expect(out.stderr).toBe(
      'error: parsing options: --cluster-name / CLUSTER_NAME is ""; accepted: this cluster\'s name, unique among the clusters sharing a cloud project (Helm: controller.clusterName, default ovh.kubeId)\n',
    );
  });

  it('refuses an unknown demo cloud (the test bed CLI)', async () => {
    const { out, io: cli } = io();
    expect(await main(['demo', '--cloud', 'aws'], cli, testbedCommands)).toBe(2);
    expect(out.stderr).toContain('--cloud "aws" is not supported by the demo; accepted: ovhcloud, scaleway, outscale');
  });
});
