import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../web/vite.compress.js';

const apiPort = process.env.API_PORT || '8080';

/** The browser player, served by the server under /player/ (its own small bundle, no antd). */
export default defineConfig({
  base: '/player/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: Number(process.env.PLAYER_PORT || 5174),
    proxy: {
      '/dapi': { target: `http://127.0.0.1:${apiPort}` },
      '/files': { target: `http://127.0.0.1:${apiPort}` },
      '/mqtt': { target: `ws://127.0.0.1:${apiPort}`, ws: true },
    },
  },
});
