// Lint guards the boundaries the architecture relies on (README "Architecture"):
//  - src/domain/** is pure: no I/O modules, no SDKs, no servers, no clocks, no process.env, no randomness;
//  - each cloud SDK is imported only inside its own room under src/cloudprovider/<cloud>/ (and the test bed's
//    emulator tests drive them from test/);
//  - product code, the CLI included, never imports the test bed (src/testbed/**): the test bed's own CLI
//    (src/testbed/bin.ts, built apart) adds `demo` to the product's commands;
//  - process.env is read only in src/operator/options.ts and the CLI entry;
//  - no import runs back up the layers: cli → operator (composition root) → controllers, webhooks (HTTP shells),
//    views (request-path views) → state, kube, cloudprovider, metrics, byte-path → domain → apis, catalog, util;
//  - the extender's byte path (src/byte-path/) is imported only through its index.ts.
// Budgets for product code (not tests, not the test bed): ESLint's `complexity` also counts `?.`, `??` and default
// parameters, which our defensive reads of Kubernetes objects use on every line, so 20 here is about McCabe's
// classic 10-15; 5 parameters, past which a call needs an options object to stay readable. The few exceptions
// are marked inline with their reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const sdkBans = [
  { group: ['ovh', '@ovhcloud/*'], message: 'the OVH SDK is imported only in src/cloudprovider/ovhcloud/' },
  { group: ['@scaleway/*'], message: 'the Scaleway SDK is imported only in src/cloudprovider/scaleway/' },
  { group: ['aws4', 'aws4fetch'], message: 'SigV4 signing lives only in src/cloudprovider/outscale/' },
];
const testbedBan = { group: ['**/testbed/**'], message: 'product code must not depend on the simulation (src/testbed)' };
const bytePathPort = {
  group: ['**/byte-path/*', '!**/byte-path/index.js'],
  message: 'the byte path is imported only through src/byte-path/index.ts',
};
/** Bans imports of the given top-level folders (src/<name>/ or webhooks/) from a lower layer. */
const upward = (layer, ...folders) => ({
  group: folders.map((folder) => `**/${folder}/**`),
  message: `${layer} must not import a layer above it (${folders.join(', ')}): see the layers at the top of eslint.config.js`,
});
const aboveViews = ['cli', 'operator', 'controllers', 'webhooks'];
const aboveCore = [...aboveViews, 'views'];
const aboveDomain = [...aboveCore, 'state', 'kube', 'cloudprovider', 'metrics', 'byte-path'];
/** no-restricted-imports of one layer: SDKs, the test bed, the byte path's port, and the layers above. */
const layerImports = (extra, ...patterns) => ['error', { patterns: [...extra, bytePathPort, ...patterns] }];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-testbed/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'manifests/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'webhooks/**/*.ts'],
    ignores: ['src/testbed/**'],
    rules: { complexity: ['error', 20], 'max-params': ['error', 5] },
  },
  {
    files: ['src/**/*.ts', 'webhooks/**/*.ts'],
    ignores: ['src/cloudprovider/**', 'src/testbed/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': layerImports([...sdkBans, testbedBan]) },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': layerImports([...sdkBans, testbedBan]) },
  },
  {
    files: ['src/controllers/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports([...sdkBans, testbedBan], upward('src/controllers', 'cli', 'operator', 'webhooks', 'views')),
    },
  },
  {
    files: ['webhooks/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports(
        [...sdkBans, testbedBan],
        upward(
          'webhooks (HTTP shells: decode, domain, encode)',
          'cli',
          'operator',
          'controllers',
          'views',
          'state',
          'kube',
          'cloudprovider',
        ),
      ),
    },
  },
  {
    files: ['src/views/**/*.ts'],
    rules: { 'no-restricted-imports': layerImports([...sdkBans, testbedBan], upward('src/views', ...aboveViews)) },
  },
  {
    files: ['src/state/**/*.ts', 'src/kube/**/*.ts', 'src/metrics/**/*.ts', 'src/byte-path/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports(
        [...sdkBans, testbedBan],
        upward('src/state, src/kube, src/metrics and src/byte-path', ...aboveCore),
      ),
    },
  },
  {
    files: ['src/apis/**/*.ts', 'src/catalog/**/*.ts', 'src/util/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports([...sdkBans, testbedBan], upward('src/apis, src/catalog and src/util', ...aboveDomain)),
    },
  },
  {
    files: ['src/cloudprovider/ovhcloud/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports(
        [sdkBans[1], sdkBans[2], testbedBan],
        { group: ['**/scaleway/**', '**/outscale/**'], message: 'a cloud never imports a sibling cloud' },
        upward('src/cloudprovider', ...aboveCore, 'state'),
      ),
    },
  },
  {
    files: ['src/cloudprovider/scaleway/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports(
        [sdkBans[0], sdkBans[2], testbedBan],
        { group: ['**/ovhcloud/**', '**/outscale/**'], message: 'a cloud never imports a sibling cloud' },
        upward('src/cloudprovider', ...aboveCore, 'state'),
      ),
    },
  },
  {
    files: ['src/cloudprovider/outscale/**/*.ts'],
    rules: {
      'no-restricted-imports': layerImports(
        [sdkBans[0], sdkBans[1], testbedBan],
        { group: ['**/ovhcloud/**', '**/scaleway/**'], message: 'a cloud never imports a sibling cloud' },
        upward('src/cloudprovider', ...aboveCore, 'state'),
      ),
    },
  },
  {
    files: ['src/cloudprovider/*.ts', 'src/cloudprovider/fake/**/*.ts'],
    rules: { 'no-restricted-imports': layerImports([...sdkBans, testbedBan], upward('src/cloudprovider', ...aboveCore, 'state')) },
  },
  {
    files: ['src/testbed/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: sdkBans }] },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...sdkBans,
            testbedBan,
            {
              group: ['node:*', 'fs', 'http', 'https', 'net', 'child_process', 'express', 'prom-client', 'lru-cache'],
              message: 'src/domain is pure: no I/O, servers, metrics or caches',
            },
            {
              group: [
                '**/kube/**',
                '**/state/**',
                '**/controllers/**',
                '**/cloudprovider/**',
                '**/webhooks/**',
                '**/operator/**',
                '**/views/**',
                '**/metrics/**',
                '**/byte-path/**',
                '**/cli/**',
              ],
              message: 'src/domain may import only src/domain, src/apis and src/util/pure code',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'pure code takes the time as an argument',
        },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'pure code takes the time as an argument' },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'pure code takes randomness as an argument',
        },
        { selector: "CallExpression[callee.name='setTimeout']", message: 'pure code has no timers' },
        { selector: "MemberExpression[object.name='console']", message: 'pure code returns reasons; the shell logs them' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'configuration is parsed once in src/operator/options.ts' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'webhooks/**/*.ts'],
    ignores: ['src/operator/options.ts', 'src/cli/**', 'src/domain/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'configuration is parsed once in src/operator/options.ts' },
      ],
    },
  },
);
