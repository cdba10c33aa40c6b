import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, appDocument, typesOf } from '../../scripts/lib/client-schema.js';

// `@parley/client` as a package: types in step with the server's document, resolved by its package
// name through its exports, and a tarball that holds the built client and nothing of the server.
// (.ci/run installs that tarball into an empty project and runs the README's examples there.)

const run = promisify(execFile);
const packageDir = new URL('../../packages/client/', import.meta.url);
const SERVER_PACKAGES = ['fastify', 'pg', 'drizzle-orm', '@electric-sql/pglite', 'zod', 'pino'];

describe('@parley/client', () => {
  it('has committed types that match the current document (npm run client:generate)', async () => {
    const committed = await readFile(CLIENT_SCHEMA_FILE, 'utf8');
    expect(
      committed === (await typesOf(await appDocument())),
      'packages/client/src/schema.ts is stale: run npm run client:generate',
    ).toBe(true);
  }, 60_000);

  it('resolves each entry point through its exports map to the built code and its declarations', async () => {
    const entries = [
      '@parley/client',
      '@parley/client/ai-sdk',
      '@parley/client/langchain',
      '@parley/client/openai-agents',
    ];
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      `for (const name of ${JSON.stringify(entries)}) console.log(import.meta.resolve(name));
       const { Parley, ParleyError } = await import('@parley/client');
       console.log(typeof new Parley({ baseUrl: 'http://127.0.0.1:1' }).dialogues.list, new ParleyError(404).code);`,
    ]);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 4).map((url) => url.replace(/^.*\/packages\/client\//, ''))).toEqual([
      'dist/index.js',
      'dist/ai-sdk.js',
      'dist/langchain.js',
      'dist/openai-agents.js',
    ]);
    expect(lines[4]).toBe('function HTTP_404');
    for (const name of ['index', 'ai-sdk', 'langchain', 'openai-agents', 'schema']) {
      await expect(readFile(new URL(`dist/${name}.d.ts`, packageDir), 'utf8')).resolves.toBeTruthy();
    }
  });

  it('packs the built client alone: dist, README and LICENSE, under 1 MB, openapi-fetch its only dependency', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', packageDir), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    for (const framework of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[framework], framework).toEqual({ optional: true });
    }
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: packageDir,
    });
    const [tarball] = JSON.parse(stdout) as { unpackedSize: number; files: { path: string }[] }[];
    const paths = tarball!.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js']));
    expect(
      paths.filter((path) => !/^(dist\/.*\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(path)),
    ).toEqual([]);
    expect(tarball!.unpackedSize).toBeLessThan(1024 * 1024);
    const all = { ...manifest.dependencies, ...manifest.peerDependencies };
    expect(SERVER_PACKAGES.filter((name) => name in all)).toEqual([]);
  }, 60_000);

  it('shows in its README exactly the example programs that CI runs from the installed tarball', async () => {
    const readme = await readFile(new URL('README.md', packageDir), 'utf8');
    const blocks = [...readme.matchAll(/```js\n([\s\S]*?)\n```/g)].map((match) => match[1]);
    const examples = await Promise.all(
      ['quickstart', 'ai-sdk-chat-route', 'langgraph-memory', 'openai-agents-session'].map((name) =>
        readFile(new URL(`examples/${name}.mjs`, packageDir), 'utf8'),
      ),
    );
    expect(blocks).toEqual(examples.map((text) => text.trimEnd()));
  });
});
