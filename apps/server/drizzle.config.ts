import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @marquee/server` writes a new migration from the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
