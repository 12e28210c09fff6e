import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The arrows of DESIGN.md, enforced: `bot|web -> services -> agents -> tools`, `services -> repositories -> db`,
 * everything may import `core/`, and `core/` imports nothing of ours. Each entry forbids the folders a layer
 * must not reach.
 */
const LAYERS = {
  core: ['agents', 'bot', 'composition', 'config', 'db', 'logging', 'notion', 'repositories', 'services', 'simulator', 'tools', 'tracing', 'web'],
  tools: ['agents', 'bot', 'composition', 'db', 'notion', 'repositories', 'services', 'simulator', 'web'],
  agents: ['bot', 'composition', 'db', 'repositories', 'services', 'web'],
  services: ['bot', 'composition', 'web'],
  repositories: ['agents', 'bot', 'composition', 'services', 'tools', 'web'],
  db: ['agents', 'bot', 'composition', 'repositories', 'services', 'tools', 'web'],
  bot: ['composition', 'db', 'repositories'],
  web: ['bot', 'composition', 'db', 'repositories'],
  notion: ['agents', 'bot', 'composition', 'services', 'web'],
  tracing: ['agents', 'bot', 'composition', 'services', 'web'],
  config: ['agents', 'bot', 'composition', 'db', 'notion', 'repositories', 'services', 'tools', 'tracing', 'web'],
};

const layerRules = Object.entries(LAYERS).map(([layer, forbidden]) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...forbidden.map((folder) => ({
            group: [`**/${folder}/*`, `**/${folder}/**`],
            message: `src/${layer} must not import src/${folder} (DESIGN.md, Layout).`,
          })),
          ...(layer === 'bot' ? [] : [{ group: ['discord.js'], message: 'discord.js belongs to src/bot only.' }]),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules', '.cache', 'data', 'coverage', 'test-results', 'src/web/assets/**/*.js', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read the environment only in src/config.' },
        {
          // The promise `finally` returns rejects as the original does: left to itself, its rejection is unhandled.
          selector: "UnaryExpression[operator='void'] > CallExpression > MemberExpression.callee[property.name='finally']",
          message: '`void p.finally(f)` rejects unhandled when p rejects: write `void p.then(f, f)`, or handle the rejection.',
        },
      ],
    },
  },
  // The launcher reads SMALL_HOST and DATABASE_URL before the app exists: V8's flags and glibc's malloc settings are
  // taken only when a process starts.
  { files: ['src/config/**', 'tests/**', 'bench/**', 'vitest.config.ts', 'scripts/start.mjs'], rules: { 'no-restricted-syntax': 'off' } },
  ...layerRules,
);
