import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md checked against the code, for the statements that no import rule can
// check (those are in .dependency-cruiser.cjs, each named in the document).

const root = join(import.meta.dirname, '..', '..');
const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const moduleNames = readdirSync(join(root, 'src', 'modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('docs/architecture.md', () => {
  it('names every folder and top-level file of src/ in its code map', () => {
    const codeMap = architecture.slice(architecture.indexOf('## Code map'), architecture.indexOf('Modules:'));
    const entries = readdirSync(join(root, 'src'), { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `${entry.name}/` : entry.name,
    );
    const lines = codeMap.split('\n').map((line) => line.match(/^ {2}(\S+?)(?:<|\s|$)/)?.[1]);
    for (const entry of entries) expect(lines, entry).toContain(entry);
  });

  it('names every module in its list of modules', () => {
    const list = architecture.slice(architecture.indexOf('Modules:'), architecture.indexOf('## Layers'));
    for (const name of moduleNames) expect(list, name).toContain(`\`${name}\``);
  });

  it('"Every service is createXService(deps)": each module service file exports such a factory', () => {
    const serviceFiles = filesUnder('src/modules').filter((file) => /\/service\.ts$/.test(file));
    expect(serviceFiles.length).toBeGreaterThan(10);
    for (const file of serviceFiles) {
      expect(readFileSync(join(root, file), 'utf8'), file).toMatch(
        /^export function create\w*Service\(\{?[^)]*\}?: \w+Deps\)/m,
      );
    }
  });

  it('"services.ts wires them all": no other file of src/ calls a service factory', () => {
    const calls = filesUnder('src').flatMap((file) => {
      if (file === 'src/services.ts') return [];
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(/(?<!function )\bcreate\w*Service\(/g)].map((match) => `${file}: ${match[0]}`);
    });
    expect(calls).toEqual([]);
  });

  it('"the unit of work opens the transaction": only the files D86 and the background work name open one', () => {
    // Each entry is a decision, not a convenience: a new file here needs a reason in the document.
    const allowed = [
      // D86: an operator's writes, on no project's behalf.
      'src/modules/projects/service.ts',
      'src/modules/projects/erasure.ts',
      'src/modules/transfer/service.ts',
      // Background work, which answers no request: numbering events (D63) and the workers.
      'src/modules/events/repository.ts',
      'src/modules/embeddings/worker.ts',
      'src/modules/webhooks/worker.ts',
      // D154: the retention sweeper's batches, each under its project's advisory lock.
      'src/modules/retention/service.ts',
      // D164: a namespace erasure's batches, run by the background worker.
      'src/modules/erasures/service.ts',
      // A read: SET LOCAL for the vector index's search settings lives only in a transaction.
      'src/modules/search/repository.ts',
    ];
    const opening = filesUnder('src/modules').filter((file) =>
      /\.transaction\(/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(opening.sort()).toEqual(allowed.sort());
  });

  it('"A module owns its tables": the tables a module queries are its own, but for the crossings listed', () => {
    const owner: Record<string, string> = {
      projects: 'projects',
      apiKeys: 'projects',
      projectErasures: 'projects',
      dialogues: 'dialogues',
      summaries: 'summaries',
      messages: 'messages',
      memories: 'memories',
      embeddingJobs: 'embeddings',
      searchTerms: 'search',
      usageCounters: 'usage',
      events: 'events',
      eventSequences: 'events',
      webhookEndpoints: 'webhooks',
      webhookDeliveries: 'webhooks',
      webhookAttempts: 'webhooks',
      erasures: 'erasures',
    };
    // Each crossing is a choice the document states; a new one needs its reason here and there.
    const crossings = [
      // D35: one statement appends the messages and moves their dialogue's counters.
      'messages/repository.ts -> dialogues',
      // The messages a summary draws on, and those a context includes, read in their own order.
      'summaries/compaction-repository.ts -> messages',
      'context/repository.ts -> messages',
      // A `message.created` event of an unchanged message reads its data from the message row.
      'events/repository.ts -> messages',
      // D70: an erasure empties the copies of the events in webhook deliveries and the answers
      // their receivers gave, in the erasure's transaction.
      'events/repository.ts -> webhookDeliveries',
      'events/repository.ts -> webhookAttempts',
      // A whole project out and in, in one snapshot and one transaction.
      'transfer/repository.ts -> dialogues',
      'transfer/repository.ts -> messages',
      'transfer/repository.ts -> memories',
      'transfer/repository.ts -> embeddingJobs',
    ];
    const found = filesUnder('src/modules').flatMap((file) => {
      const [, module, name] = file.match(/^src\/modules\/([^/]+)\/(.+)$/)!;
      const imported = readFileSync(join(root, file), 'utf8').match(
        /^import \{([^}]*)\} from '\.\.\/\.\.\/db\/schema\.js';/m,
      );
      const tables = (imported?.[1] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name in owner);
      return tables
        .filter((table) => owner[table] !== module)
        .map((table) => `${module}/${name} -> ${table}`);
    });
    expect(found.sort()).toEqual(crossings.sort());
  });

  it('every decision a comment in src/ cites has its text in docs/decisions.md', () => {
    const decisions = readFileSync(join(root, 'docs', 'decisions.md'), 'utf8');
    const defined = new Set([...decisions.matchAll(/\*\*(D\d+[a-z]?)\.\*\*/g)].map((match) => match[1]));
    const unresolved = filesUnder('src').flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/\b(D\d+[a-z]?)\b/g)]
        .map((match) => match[1]!)
        .filter((id) => !defined.has(id))
        .map((id) => `${file}: ${id}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('"app.ts never listens" and "Postgres error codes are read in one place, db/errors.ts"', () => {
    expect(readFileSync(join(root, 'src', 'app.ts'), 'utf8')).not.toMatch(/\.listen\(/);
    // SQLSTATE codes are five characters, digits first (23505, 40P01, 57P01).
    const codes = filesUnder('src').filter(
      (file) =>
        file !== 'src/db/errors.ts' &&
        /['"][0-9]{2}[0-9A-Z]{3}['"]/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(codes).toEqual([]);
  });
});
