#!/usr/bin/env node
/**
 * The package's bin. It checks the Node.js version before anything else loads (the dependencies need the
 * engines' Node and fail obscurely on an older one), then loads the CLI: every import past the check is dynamic.
 */
import { exitOnUnsupportedNode } from './node-version.js';

// ../../package.json from src/cli (tsx) and from dist/src/cli (the build emits dist/package.json).
exitOnUnsupportedNode(new URL('../../package.json', import.meta.url));
(await import('./start.js')).start();
