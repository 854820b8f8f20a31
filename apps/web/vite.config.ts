import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = process.env.API_PORT || '8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The login route and the shell have size budgets (login <= 200 KB gzip, shell <= 400 KB);
    // the report in `vite build` output is the check.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    port: Number(process.env.WEB_PORT || 5173),
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
});
