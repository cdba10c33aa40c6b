import type { KnipConfig } from 'knip';

// Unused files, exports, types and dependencies: `knip`, run by `npm run lint`; any finding fails.
// An export that only its own file uses is reported too (knip's default): make it non-exported.
// Exports used only by tests are fine: test files are entries, so their imports count.
const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        // Also entries, found by knip itself (listing them again draws a "redundant entry" hint):
        // src/server.ts, src/cli.ts and bin/parley.js through package.json ("start", "parley",
        // "bin"); vitest.config.ts, vitest.slow.config.ts and drizzle.config.ts (with the files they
        // name) through knip's vitest and drizzle plugins.
        'bench/*.ts',
        'scripts/*.{ts,mjs}',
        'test/**/*.test.ts',
        // The Citus-only tests' configuration, named by scripts/test-citus.mjs on the command line.
        'vitest.citus.config.ts',
        // Started as a worker thread by URL (`new URL('./local-worker.mjs', import.meta.url)` in
        // local.ts), not imported. knip follows such URLs today; the entry keeps the file and its
        // @energetic-ai dependencies counted as used should that ever change.
        'src/embedders/local-worker.mjs',
        // The server's re-export of @parley/client, for code of this repository that imports the
        // client from src/ (its users are outside this file's reach).
        'src/client/index.ts',
        // The web console's component tests (its page script and e2e setup are found by knip's
        // Vite and Vitest plugins).
        'console/test/*.test.tsx',
      ],
      project: [
        'src/**/*.{ts,mjs}',
        'bench/**/*.ts',
        'scripts/**/*.{ts,mjs}',
        'test/**/*.ts',
        'bin/*.js',
        '*.ts',
        'console/**/*.{ts,tsx}',
      ],
      // Run by scripts/lint-openapi.ts through their package's bin, resolved from package.json.
      // And by path, on Node 24, by scripts/mcp-conformance.mjs (it needs Node 22 or later).
      ignoreDependencies: [
        '@redocly/cli',
        '@stoplight/spectral-cli',
        '@hey-api/openapi-ts',
        '@modelcontextprotocol/conformance',
      ],
    },
    'packages/client': {
      // The package's entry points (its "exports", compiled to dist/) and the README's examples,
      // which scripts/check-client-package.sh runs from the installed tarball.
      entry: ['src/{index,ai-sdk,langchain,openai-agents}.ts', 'examples/*.mjs'],
      project: ['src/**/*.ts', 'examples/*.mjs'],
    },
  },
  // Machine tools, not npm packages: PostgreSQL's pg_dump (tests read a database's data with it,
  // D73) and openssl (tests make self-signed certificates for HTTPS, D60).
  ignoreBinaries: ['pg_dump', 'openssl'],
};

export default config;
