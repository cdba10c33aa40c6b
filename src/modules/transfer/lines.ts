import { StringDecoder } from 'node:string_decoder';

/**
 * The lines of a stream, pulled as they are consumed. (readline's async iterator drops lines
 * emitted before the first `next()`, which happens when the consumer awaits something first.)
 */
export async function* readLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n')) {
      pending.push(text.slice(0, newline));
      yield pending.join('').replace(/\r$/, '');
      pending = [];
      text = text.slice(newline + 1);
    }
    if (text) pending.push(text);
  }
  const last = pending.join('') + decoder.end();
  if (last) yield last.replace(/\r$/, '');
}
