// Preloaded with --import: any module under src/testbed fails to load, as where the product build runs (the
// test bed is not there). Resolution hooks run in order of registration, latest first, so this one sees tsx's
// answer for every import, static or dynamic.
import { register } from 'node:module';

register('./refuse-testbed-hooks.mjs', import.meta.url);
