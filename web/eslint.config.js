// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Imports flow one way: app → features → shared (components, lib). A feature
// never imports another feature (STYLE.md, bulletproof-react). Checked on the
// import path itself, with ESLint's own rule.
const FEATURES = ['auth', 'overview', 'gateways', 'meters', 'registration', 'search', 'notifications', 'alarms', 'map', 'users', 'audit', 'api-keys', 'alarm-rules', 'device-import', 'gateway-credentials'];
const featureRules = FEATURES.map((feature) => ({
  files: [`src/features/${feature}/**/*.{ts,tsx}`],
  ignores: ['src/**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(${FEATURES.filter((f) => f !== feature).join('|')})/`,
            message: 'A feature does not import another feature; move shared code to src/components or src/lib.',
          },
        ],
      },
    ],
  },
}));
const sharedRule = {
  files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
  ignores: ['src/**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: '^(\\.\\./)+(features|app)/', message: 'Shared code does not import features or the app.' }] },
    ],
  },
};

export default defineConfig([
  globalIgnores(['dist', 'coverage', 'node_modules']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.strictTypeChecked,
      tseslint.configs.stylisticTypeChecked,
      reactHooks.configs.flat['recommended-latest'],
    ],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  ...featureRules,
  sharedRule,
  {
    files: ['eslint.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
]);
