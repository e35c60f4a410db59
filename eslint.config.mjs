// ESLint 9 flat config: TypeScript (typescript-eslint) and the React hooks rules over
// views/. `npm run lint` / `make test-lint-js` run it; `make test` includes it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'static/', 'ssr/dist/', 'bin/', 'tests/', 'bench/'] },
  {
    files: ['views/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // unused arguments and destructured leftovers named _x are deliberate
      // the packages' index modules: with code splitting esbuild puts everything they
      // re-export into chunks every importing island loads (docs/performance.md)
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'lucide-react', allowTypeImports: true, message: "Import one icon by its file: import X from 'lucide-react/icons/x'." },
          { name: 'radix-ui', message: "Import one primitive: import * as Dialog from 'radix-ui/dialog'." },
        ],
      }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
);
