import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { alias: { '@coffer/checksums': fileURLToPath(new URL('../../libs/checksums/src/index.ts', import.meta.url)) } },
  // the rules and the protocol are plain functions: node; files that need a DOM say `@vitest-environment jsdom`
  test: { environment: 'node', include: ['src/**/*.test.{ts,tsx}'] },
});
