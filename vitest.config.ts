import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/vitest-global-setup.mjs'],
    testTimeout: 60_000,
  },
});
