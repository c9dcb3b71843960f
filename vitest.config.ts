import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/vitest-global-setup.mjs'],
    testTimeout: 60_000,
    // expect.poll waits 1 s by default: a spawned CLI's first line or a server letting go of a file
    // can take longer than that on a loaded 2-core machine. A poll still ends as soon as it holds.
    expect: { poll: { timeout: 30_000 } },
    // Hooks stop servers and delete installed packages and temp stores: on a loaded 2-core machine
    // the package test's afterAll (killAll, then removing a global install) took over the 10 s
    // default, and CI counted the suite as failed with every test passed.
    hookTimeout: 120_000,
  },
});
