import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appDocument } from './lib/client-schema.js';

// `npm run lint:openapi`: the document the app serves (admin API on, so that every operation is in
// it), written to a temporary folder, then
// 1. linted by the two linters most used on OpenAPI documents, Redocly CLI (`recommended-strict`:
//    its recommended rules with warnings raised to errors, redocly.yaml) and Spectral
//    (`spectral:oas`, .spectral.yaml, failing on any finding); any problem fails;
// 2. given to a second client generator, @hey-api/openapi-ts (fetch client), whose output and a
//    small program calling it must compile under `tsc --strict`: clients in other stacks are
//    generated from this document, not only ours (openapi-typescript).

const require = createRequire(import.meta.url);
const bin = (pkg: string, name: string) => {
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  return join(
    require.resolve(`${pkg}/package.json`),
    '..',
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name]!,
  );
};
const run = (script: string, args: string[]) =>
  execFileSync(process.execPath, [script, ...args], { stdio: 'inherit' });

const program = `
import { createDialogue, createMessage, search } from './generated/index.js';
import { client } from './generated/client.gen.js';

client.setConfig({ baseUrl: 'http://127.0.0.1:3000', auth: () => 'a-key' });
export async function example(): Promise<number> {
  const { data: dialogue } = await createDialogue({ body: { label: 'generated' }, throwOnError: true });
  await createMessage({ body: { dialogueId: dialogue.id, role: 'user', content: 'hello' }, throwOnError: true });
  const { data: found } = await search({ body: { query: 'hello', object: 'message' }, throwOnError: true });
  return found.results.length;
}
`;

const dir = await mkdtemp(join(tmpdir(), 'parley-openapi-'));
const file = join(dir, 'openapi.json');
try {
  await writeFile(file, JSON.stringify(await appDocument(), null, 2));
  console.log('== Redocly CLI (recommended-strict)');
  run(bin('@redocly/cli', 'redocly'), ['lint', '--max-problems', '1000', file]);
  console.log('== Spectral (spectral:oas)');
  run(bin('@stoplight/spectral-cli', 'spectral'), ['lint', '--fail-severity', 'hint', file]);
  console.log('== @hey-api/openapi-ts: generate a fetch client and compile it');
  run(bin('@hey-api/openapi-ts', 'openapi-ts'), [
    '-i',
    file,
    '-o',
    join(dir, 'generated'),
    '-c',
    '@hey-api/client-fetch',
    '-s',
  ]);
  await writeFile(join(dir, 'program.ts'), program);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: [],
      },
      include: ['program.ts', 'generated/**/*.ts'],
    }),
  );
  run(require.resolve('typescript/bin/tsc'), ['-p', join(dir, 'tsconfig.json')]);
  console.log('OpenAPI document: both linters clean; the generated client compiles');
} finally {
  await rm(dir, { recursive: true, force: true });
}
