import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.netlify/',
      'src/generated/',
      'coverage/',
      'public/admin/app.js',
      'public/widget/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // why: parsed JSON answers in tests and in the platform's recording helpers
    files: ['tests/**/*.ts', 'platform/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The layout is the record of what ships (docs/architecture.md, "Where the code lives"): what
  // runs on Netlify or in the browser imports no tool, and build-time code only as types
  {
    files: ['netlify/**/*.ts', 'src/lib/**/*.ts', 'src/dashboard/**/*.ts', 'src/widget/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/build/**'],
              allowTypeImports: true,
              message: 'src/build/ runs at build time only; the runtime may import its types only.',
            },
            {
              group: ['**/scripts/**', '**/platform/**', '**/bench/**', '**/tests/**'],
              message: 'Tools never ship: runtime and browser code import only src/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.ts', 'platform/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/tests/**'],
              message: 'Tools never import tests: share through platform/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', 'platform/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/scripts/**'],
              message:
                'scripts/ holds entry points only; import what they run from src/build/ or platform/.',
            },
          ],
        },
      ],
    },
  },
)
