// The plain text of message content, for full-text search and embeddings (D40-D41). Content is
// free-form (D28): a string, a structured object or an array of blocks. Text is drawn from every
// string value found in it, in document order, so that a text block's `text`, a tool call's
// arguments and a structured object's fields are all searchable. Keys are left out: they name
// the shape, not what was said, and so are long strings without any whitespace (base64 image
// data, encoded blobs), which no one searches for by their words.

/** Enough text to find a message by; the rest of a very long message adds little to search. */
export const MAX_SEARCH_TEXT_CHARS = 200_000;

const BLOB = /^\S{512,}$/;

export function contentText(content: unknown): string {
  const parts: string[] = [];
  collect(content, parts);
  // NUL cannot be stored in a Postgres text column; it carries no searchable meaning anyway.
  return parts.join('\n').replaceAll('\u0000', '').slice(0, MAX_SEARCH_TEXT_CHARS);
}

/** A message's speaker as its search text ends with it: NUL removed, trimmed; undefined when blank. */
const speakerOf = (name: string | null | undefined) => name?.replaceAll('\u0000', '').trim() || undefined;

/**
 * D179: what a message is found by, by words and by meaning: the text of its content, then the
 * name of who said it when it has one ("what did Caroline say about the parade" finds Caroline's
 * own lines, which seldom name her).
 */
export function messageSearchText(content: unknown, name: string | null | undefined): string {
  const text = contentText(content);
  const speaker = speakerOf(name);
  return speaker ? `${text}\n${speaker}`.slice(0, MAX_SEARCH_TEXT_CHARS) : text;
}

/** The text of a message's content again, from its search text: what a summary reads (D179). */
export function contentTextOf(searchText: string, name: string | null | undefined): string {
  const speaker = speakerOf(name);
  const line = `\n${speaker}`;
  return speaker && searchText.endsWith(line) ? searchText.slice(0, -line.length) : searchText;
}

function collect(value: unknown, parts: string[]): void {
  if (typeof value === 'string') {
    if (value.trim() !== '' && !BLOB.test(value)) parts.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, parts);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, parts);
  }
}
