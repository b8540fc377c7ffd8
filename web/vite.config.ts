import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One single-page app for the portal (/portal/…) and the workbench (/workbench/…, the examiner desk under
// /workbench/examiner/…); the gateway serves dist/index.html for both and the hashed bundles under /assets/.
// Each area is a lazy route (src/routes.tsx), so its code is a chunk of its own; the manifest
// (dist/.vite/manifest.json) maps each area's source to its chunks for the bench and the portal journey.
// The pages run on Preact through preact/compat (aliased for react and react-dom, in the build and in the
// tests): React DOM alone is about 65 KB gzipped, most of the portal's 80 KB budget (bench web.portal_js_gzip_kb).
//
// Under Vitest, react-router resolves to its CommonJS build, whose require('react') the aliases below never
// see: the tests load its ES modules instead (react-router sits beside react-router-dom in pnpm's store).
const reactRouterDom = path.dirname(createRequire(import.meta.url).resolve('react-router-dom/package.json'));
const reactRouter = path.join(reactRouterDom, '../react-router/dist/development');

export default defineConfig({
  plugins: [react()],
  base: '/',
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
    alias: [
      { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
      { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
      { find: /^react-router-dom$/, replacement: `${reactRouterDom}/dist/index.mjs` },
      { find: /^react-router$/, replacement: `${reactRouter}/index.mjs` },
      { find: /^react-router\/dom$/, replacement: `${reactRouter}/dom-export.mjs` },
    ],
    server: { deps: { inline: [/@testing-library\/react/, /react-router/, /@tanstack\/react-query/] } },
  },
});
