import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, appDocument, typesOf } from '../../scripts/lib/client-schema.js';

// The client as a consumer gets it: built by `npm run build:client`, imported through the package
// name (package.json "exports"), with types that match the server's document.

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);

describe('parley/client', () => {
  it('has committed types that match the current document (npm run client:generate)', async () => {
    const committed = await readFile(CLIENT_SCHEMA_FILE, 'utf8');
    expect(
      committed === (await typesOf(await appDocument())),
      'src/client/schema.d.ts is stale: run npm run client:generate',
    ).toBe(true);
  }, 60_000);

  it('builds and resolves through the exports map, with its declarations', async () => {
    await run('npm', ['run', 'build:client'], { cwd: root });
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { Parley, ParleyError } from 'parley/client';
         const p = new Parley({ baseUrl: 'http://127.0.0.1:1' });
         console.log(typeof p.dialogues.list, new ParleyError(404, undefined).code,
           import.meta.resolve('parley/client'));`,
      ],
      { cwd: root },
    );
    expect(stdout).toContain('function HTTP_404');
    expect(stdout.trim()).toMatch(/dist\/client\/index\.js$/);
    await expect(readFile(new URL('dist/client/index.d.ts', root), 'utf8')).resolves.toContain(
      'class Parley',
    );
    await expect(readFile(new URL('dist/client/schema.d.ts', root), 'utf8')).resolves.toContain(
      'interface paths',
    );
  }, 120_000);
});
