import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite.compress.js';

const apiPort = process.env.API_PORT || '8080';

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The login route and the shell have size budgets (login <= 200 KB, shell <= 400 KB, as
    // sent compressed): `npm run bench bundle-size` prints them.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    port: Number(process.env.WEB_PORT || 5173),
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
});
