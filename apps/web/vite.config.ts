import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Vite requires a default export.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      treeshake: {
        // Building a zod schema touches nothing outside it: schemas a page never uses (most of the
        // contract, on the sign-in page) are dropped instead of kept for possible side effects.
        manualPureFunctions: ['z'],
        moduleSideEffects: (id) => !id.includes('/packages/contract/'),
      },
      output: {
        // React changes least often of all and every page needs it: one chunk that stays cached across
        // releases. Everything else is left to Rollup, which puts each library with the screens that
        // import it, so the sign-in page does not fetch what only the signed-in app uses.
        manualChunks: (id) => (/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
    },
  },
});
