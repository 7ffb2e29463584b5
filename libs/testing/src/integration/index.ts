// The medium test tier (`*.int.spec.ts`, `npm run test:int`): real PostgreSQL, one throwaway database per file.
// A separate entry point (@coffer/testing/integration), so the end-to-end helpers never load Prisma or Nest.
export * from './test-database';
export * from './integration-module';
export * from './fixtures';
