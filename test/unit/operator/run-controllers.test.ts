import { describe, expect, it } from 'vitest';
import type { Controller } from '../../../src/controllers/types.js';
import { ControllerFailedError, enabledControllers, runControllers } from '../../../src/operator/controllers.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { parseOperatorOptions } from '../../../src/operator/options.js';
import { silentLogger } from '../../../src/util/logger.js';

/** Runs until aborted, recording its stop. */
function waiting(name: string, log: string[]): Controller {
  return {
    name,
    start: (signal) =>
      new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          log.push(`${name} stopped`);
          resolve();
        });
      }),
  };
}

describe('runControllers', () => {
  it('runs until the signal aborts, then waits for every controller to settle', async () => {
    const log: string[] = [];
    const stop = new AbortController();
    const running = runControllers([waiting('a', log), waiting('b', log)], stop.signal, silentLogger);
    await Promise.resolve();
    expect(log).toEqual([]);
    stop.abort();
    await running;
    expect(log.sort()).toEqual(['a stopped', 'b stopped']);
  });

  it('keeps leading with no controller until aborted', async () => {
    const stop = new AbortController();
    let settled = false;
    const running = runControllers([], stop.signal, silentLogger).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    stop.abort();
    await running;
    expect(settled).toBe(true);
  });

  it('stops the others when one fails and rejects with its name', async () => {
    const log: string[] = [];
    const failing: Controller = { name: 'broken', start: () => Promise.reject(new Error('watch gone')) };
    const result = runControllers([waiting('a', log), failing], new AbortController().signal, silentLogger);
    await expect(result).rejects.toThrow(ControllerFailedError);
    await expect(result).rejects.toThrow('running controller broken: watch gone');
    expect(log).toEqual(['a stopped']);
  });
});

describe('controllers behind a feature gate', () => {
  it('runs node repair (node.health) only when NodeRepair is on', () => {
    const names = (gates: string[]): string[] =>
      enabledControllers(defaultControllers, parseOperatorOptions(gates, { CLUSTER_NAME: 'c' })).map((p) => p.name);
    expect(names([])).not.toContain('node.health');
    expect(names(['--feature-gates', 'NodeRepair=true'])).toContain('node.health');
    expect(names(['--feature-gates', 'NodeRepair=true']).length).toBe(names([]).length + 1);
  });

  it('keeps NodeOverlay statuses (nodeoverlay.status) only when NodeOverlay is on', () => {
    const names = (gates: string[]): string[] =>
      enabledControllers(defaultControllers, parseOperatorOptions(gates, { CLUSTER_NAME: 'c' })).map((p) => p.name);
    expect(names([])).not.toContain('nodeoverlay.status');
    expect(names(['--feature-gates', 'NodeOverlay=true'])).toContain('nodeoverlay.status');
  });
});
