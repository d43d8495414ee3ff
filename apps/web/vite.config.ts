import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The gateway serves the built console at :8080; `npm run dev --workspace apps/web` proxies the API to it.
export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/route-tree.gen.ts' }),
    react(),
  ],
  resolve: {
    alias: {
      '@/': path('./src/'),
      '@sc/contracts': path('../../libs/contracts/src/index.ts'),
      '@sc/i18n/': path('../../libs/i18n/src/'),
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/socket.io': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Terser, two compression passes: about 4 % less JavaScript per page than the default minifier (bench/web-bundle:
    // the floor-screen device page 250.4 → 239.6 kB gzipped), for about 20 s more build time.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    // bench/web-bundle.bench.mjs reads the manifest to weigh what each route loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        // Chunks are named by their hash alone: every import and preload list in every chunk names them, and a page
        // loads dozens. Each chunk imports the chunks it uses itself, not those of its imports as well (Vite preloads
        // the whole tree of a lazy route anyway).
        chunkFileNames: 'assets/[hash].js',
        hoistTransitiveImports: false,
        // React stays in one long-cached chunk; everything else is split by route (the router plugin) and shared use.
        manualChunks: (id) => {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
});
