import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One single-page app for the portal (/portal/…) and the workbench (/workbench/…, the examiner desk under
// /workbench/examiner/…); the gateway serves dist/index.html for both and the hashed bundles under /assets/.
// Each area is a lazy route (src/routes.tsx), so its code is a chunk of its own; the manifest
// (dist/.vite/manifest.json) maps each area's source to its chunks for the bench and the portal journey.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
  },
});
