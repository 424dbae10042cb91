// Lint guards the boundaries the architecture relies on (README "Architecture"):
//  - src/domain/** is pure: no I/O modules, no SDKs, no servers, no clocks, no process.env, no randomness;
//  - each cloud SDK is imported only inside its own room under src/cloudprovider/<cloud>/ (and the test bed's
//    emulator tests drive them from test/);
//  - product code never imports the test bed (src/testbed/**) except the CLI's `demo` command;
//  - process.env is read only in src/operator/options.ts and the CLI entry.
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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'manifests/**'] },
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
    rules: { 'no-restricted-imports': ['error', { patterns: [...sdkBans, testbedBan] }] },
  },
  {
    files: ['src/cloudprovider/ovhcloud/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sdkBans[1], sdkBans[2], testbedBan, { group: ['**/scaleway/**', '**/outscale/**'], message: 'a cloud never imports a sibling cloud' }] }] },
  },
  {
    files: ['src/cloudprovider/scaleway/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sdkBans[0], sdkBans[2], testbedBan, { group: ['**/ovhcloud/**', '**/outscale/**'], message: 'a cloud never imports a sibling cloud' }] }] },
  },
  {
    files: ['src/cloudprovider/outscale/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sdkBans[0], sdkBans[1], testbedBan, { group: ['**/ovhcloud/**', '**/scaleway/**'], message: 'a cloud never imports a sibling cloud' }] }] },
  },
  {
    files: ['src/cloudprovider/*.ts', 'src/cloudprovider/fake/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...sdkBans, testbedBan] }] },
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
            { group: ['node:*', 'fs', 'http', 'https', 'net', 'child_process', 'express', 'prom-client', 'lru-cache'], message: 'src/domain is pure: no I/O, servers, metrics or caches' },
            { group: ['**/kube/**', '**/state/**', '**/controllers/**', '**/cloudprovider/**', '**/webhooks/**', '**/operator/**'], message: 'src/domain may import only src/domain, src/apis and src/util/pure code' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'pure code takes the time as an argument' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'pure code takes the time as an argument' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'pure code takes randomness as an argument' },
        { selector: "CallExpression[callee.name='setTimeout']", message: 'pure code has no timers' },
        { selector: "MemberExpression[object.name='console']", message: 'pure code returns reasons; the shell logs them' },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'configuration is parsed once in src/operator/options.ts' }],
    },
  },
  {
    files: ['src/**/*.ts', 'webhooks/**/*.ts'],
    ignores: ['src/operator/options.ts', 'src/cli/**', 'src/domain/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'configuration is parsed once in src/operator/options.ts' }],
    },
  },
);
