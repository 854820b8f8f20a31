import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', include: ['packages/protocol/test/**/*.test.ts'], environment: 'node' } },
      {
        extends: './apps/web/vite.config.ts',
        test: { name: 'layout', root: './packages/layout', include: ['test/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/globalSetup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          pool: 'forks',
        },
      },
      { test: { name: 'player', root: './apps/player', include: ['test/**/*.test.ts'], environment: 'node' } },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
