#!/usr/bin/env node
/**
 * The test bed's CLI (`make demo`): the product's commands and `demo`, which plays the scenario on the simulated
 * cluster and the cloud emulators. Built apart from the product (tsconfig.testbed.json → dist-testbed/), so the
 * package and the image carry no test bed; like the product's bin, it checks Node before loading anything.
 */
import { exitOnUnsupportedNode } from '../cli/node-version.js';

// ../../package.json from src/testbed (tsx) and from dist-testbed/src/testbed (the build emits dist-testbed/package.json).
exitOnUnsupportedNode(new URL('../../package.json', import.meta.url));
const { testbedCommands } = await import('./commands.js');
(await import('../cli/start.js')).start(testbedCommands);
