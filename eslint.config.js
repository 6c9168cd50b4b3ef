// The house rules of docs/architecture.md, checked by `npm run lint` (part of `npm test`).
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const sources = ['**/*.ts', '**/*.tsx'];

/** A rule forbidding imports that match `patterns`, explained by `message`. */
function forbidImports(message, ...patterns) {
  return { group: patterns, message };
}

/** The layering: contract ← runner ← server, contract ← web; tools (e2e, bench) stay outside. */
const layers = [
  {
    files: ['packages/contract/src/**'],
    patterns: [
      forbidImports(
        'The contract is shared by every layer and depends on none of them.',
        '@gantry/*',
        '**/runner/src/**',
        '**/apps/**',
      ),
      forbidImports('The contract runs in the browser too: no Node modules.', 'node:*'),
    ],
  },
  {
    files: ['packages/runner/src/**'],
    patterns: [
      forbidImports('The runner depends on the contract only.', '@gantry/server', '@gantry/web', '**/apps/**'),
    ],
  },
  {
    files: ['apps/server/src/**'],
    patterns: [
      forbidImports('The server never imports the web app.', '@gantry/web', '**/apps/web/**', '**/web/src/**'),
    ],
  },
  {
    files: ['apps/web/src/**'],
    patterns: [
      forbidImports(
        'The web app talks to the server over HTTP only.',
        '@gantry/server',
        '@gantry/runner',
        '**/apps/server/**',
        '**/packages/runner/**',
      ),
      forbidImports('The web app runs in the browser: no Node modules.', 'node:*'),
    ],
  },
];

/** Web features are independent: one feature never imports another (shared parts live in lib/ or components/). */
const webFeatures = [
  'account',
  'apps',
  'auth',
  'dashboard',
  'environments',
  'integrations',
  'inventories',
  'keys',
  'projects',
  'repositories',
  'runners',
  'schedules',
  'tasks',
  'team',
  'templates',
  'terraform',
  'users',
  'views',
];

function webFeatureRule(feature) {
  const others = webFeatures.filter((name) => name !== feature);
  return {
    files: [`apps/web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layers.find((layer) => layer.files[0] === 'apps/web/src/**').patterns,
            forbidImports(
              'Web features do not import each other; move what both need to lib/ or components/.',
              // A feature's folder itself too: `../templates` resolves to its index.ts.
              ...others.flatMap((name) => [
                `../${name}`,
                `../${name}/**`,
                `../../${name}`,
                `../../${name}/**`,
                `../../../${name}`,
                `../../../${name}/**`,
                `**/features/${name}`,
                `**/features/${name}/**`,
              ]),
            ),
          ],
        },
      ],
    },
  };
}

/** Server modules own their tables: only a module's own files import its repository. */
const serverModuleRule = {
  files: ['apps/server/src/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...layers.find((layer) => layer.files[0] === 'apps/server/src/**').patterns,
          forbidImports(
            "Another module's repository is its private storage; call its service instead.",
            '../*/*.repository.ts',
            '../../*/*.repository.ts',
            '../../modules/*/*.repository.ts',
            '../modules/*/*.repository.ts',
            './modules/*/*.repository.ts',
          ),
        ],
      },
    ],
  },
};

/**
 * Files that still reach into another module's repository, to be moved behind that module's service
 * (issue 18). The list may only shrink: a new file that does it fails the lint.
 */
const repositoryReachers = ['apps/server/src/modules/backup/backup.repository.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tmp/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      '**/vitest.config.ts',
      'apps/web/vite.config.ts',
    ],
  },
  {
    files: sources,
    extends: [tseslint.configs.base],
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false, properties: false } },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'typeLike', format: ['PascalCase'] },
        { selector: 'function', format: ['camelCase', 'PascalCase'] },
        { selector: 'variable', format: ['camelCase', 'PascalCase', 'UPPER_CASE'], leadingUnderscore: 'allow' },
        // Fields of API bodies keep their wire names (snake_case) when taken apart.
        { selector: 'variable', modifiers: ['destructured'], format: null },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'no-restricted-syntax': [
        'error',
        ...[
          "MemberExpression[object.name='process'][property.name='env']",
          "MemberExpression[object.name='process'][property.value='env']",
          "VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']",
          "ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name='env']",
        ].map((selector) => ({ selector, message: 'Only config.ts reads the environment.' })),
      ],
    },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx'] })],
    },
  },
  ...layers.map((layer) => ({
    files: layer.files,
    rules: { 'no-restricted-imports': ['error', { patterns: layer.patterns }] },
  })),
  serverModuleRule,
  {
    files: repositoryReachers,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: layers.find((layer) => layer.files[0] === 'apps/server/src/**').patterns },
      ],
    },
  },
  {
    // The one place that wires every module's repository into its service.
    files: ['apps/server/src/services.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: layers.find((layer) => layer.files[0] === 'apps/server/src/**').patterns },
      ],
    },
  },
  ...webFeatures.map(webFeatureRule),
  {
    // Only configuration code, the command line's entry and tools outside the product read the environment.
    files: [
      'apps/server/src/config.ts',
      'apps/server/src/cli/**',
      'e2e/**',
      'bench/**',
      '**/test/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/vite.config.ts',
      '**/vitest.config.ts',
      'apps/server/scripts/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
