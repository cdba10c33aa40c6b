import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The labelled search set of test/fixtures/search-eval, read by eval:search and the search bench.

const fixtures = fileURLToPath(new URL('../../test/fixtures/search-eval/', import.meta.url));
export interface FixtureMessage {
  dialogueId: string;
  id: string;
  role: 'user' | 'assistant';
  text: string;
  marker?: string;
}

export interface EvalQuery {
  class: string;
  query: string;
  relevant: string[];
}

export function loadEvalMessages(): FixtureMessage[] {
  const out: FixtureMessage[] = [];
  const files = readdirSync(fixtures)
    .filter((name) => name.startsWith('dialogues-') && name.endsWith('.txt'))
    .sort();
  for (const file of files) {
    let dialogueId = '';
    let n = 0;
    for (const line of readFileSync(`${fixtures}${file}`, 'utf8').split('\n')) {
      const header = /^# (\S+)/.exec(line);
      if (header) {
        dialogueId = header[1]!;
        n = 0;
        continue;
      }
      const message = /^([ua]): (.*?)(?: \{([a-z_]+)\})?$/.exec(line);
      if (!message) continue;
      n++;
      out.push({
        dialogueId,
        id: `${dialogueId}-${String(n).padStart(2, '0')}`,
        role: message[1] === 'u' ? 'user' : 'assistant',
        text: message[2]!,
        marker: message[3],
      });
    }
  }
  return out;
}

export function loadEvalQueries(): EvalQuery[] {
  return (JSON.parse(readFileSync(`${fixtures}queries.json`, 'utf8')) as { queries: EvalQuery[] }).queries;
}
