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
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        // Libraries every page needs stay in one long-cached chunk; route pages are split by the router plugin.
        manualChunks: (id) => {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (id.includes('node_modules/@mantine/core') || id.includes('node_modules/@mantine/hooks')) return 'mantine';
          return undefined;
        },
      },
    },
  },
});
