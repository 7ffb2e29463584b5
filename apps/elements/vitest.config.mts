import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  esbuild: { jsx: 'automatic' },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
});
