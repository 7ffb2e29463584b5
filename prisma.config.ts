import { defineConfig } from 'prisma/config';

// Prisma's CLI is only used for `prisma generate`; migrations run through tools/db/migrate.mjs (offline).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
