import { RawJson } from './raw-json.js';

// D73: which stored objects a response carries content of, found from the records in it, so that
// a stored idempotent response can be emptied when one of them is deleted. The records are the
// API's own (docs/decisions.md D15, D27, D37, D56): a message record has `role` and `dialogueId`, a
// summary record `summarizedCount` and `dialogueId`, a dialogue record `threadCount`, a memory
// record `value`; any nesting (a dialogue with its messages, a batch's `items`) is walked.

/** `dialogue:<id>`: the dialogue's own fields (label, tags, metadata, state). */
export const dialogueRef = (id: string): string => `dialogue:${id}`;
/** `message:<dialogue>/<id>`: message ids are unique within their dialogue (D27). */
export const messageRef = (dialogueId: string, id: string): string => `message:${dialogueId}/${id}`;
/** `summary:<dialogue>`: the dialogue's summary, which drew on its messages (D22). */
export const summaryRef = (dialogueId: string): string => `summary:${dialogueId}`;
/** `summary:<dialogue>/<id>`: one summary record (D56), which drew on the dialogue's messages. */
export const summaryRecordRef = (dialogueId: string, id: string): string => `summary:${dialogueId}/${id}`;
export const memoryRef = (id: string): string => `memory:${id}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);

/** The references of every record inside `value`; a message also names its dialogue. */
export function objectRefsOf(value: unknown): string[] {
  const refs = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    const { id, dialogueId } = node;
    if (typeof id === 'string') {
      if ('role' in node && typeof dialogueId === 'string') {
        refs.add(messageRef(dialogueId, id));
        refs.add(dialogueRef(dialogueId));
      } else if ('summarizedCount' in node && typeof dialogueId === 'string') {
        refs.add(summaryRecordRef(dialogueId, id));
        refs.add(dialogueRef(dialogueId));
      } else if ('threadCount' in node) {
        refs.add(dialogueRef(id));
        if (node.summary !== null && node.summary !== undefined) refs.add(summaryRef(id));
      } else if ('value' in node) {
        refs.add(memoryRef(id));
      }
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(value);
  return [...refs];
}
