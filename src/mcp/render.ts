// Readable renderings of tool results for a model or a person reading a transcript. They are a
// digest: the whole result is the tool result's structuredContent.

const PREVIEW_CHARS = 300;

interface MessageView {
  id: string;
  role: string;
  name: string | null;
  content: unknown;
  created: string;
}

interface DialogueView {
  id: string;
  label: string | null;
  namespace: string | null;
  threadOf: string | null;
  status: string;
  tags: string[];
  state: Record<string, unknown>;
  summary: { text: string } | null;
  totalMessages: number;
  created: string;
  messages?: MessageView[];
}

interface MemoryView {
  id: string;
  label: string | null;
  namespace: string | null;
  /** The value as the result's JSON holds it (any JSON value, D57). */
  value: unknown;
  tags: string[];
}

interface Page<T> {
  items: T[];
  next: string | null;
}

function clip(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** A content block as a reader sees it: its text, or its kind (`[tool_use lookup]`). */
function blockPreview(block: unknown): string {
  const { type, text, name } = (block ?? {}) as { type?: unknown; text?: unknown; name?: unknown };
  if (typeof text === 'string') return text;
  return `[${typeof type === 'string' ? type : 'block'}${typeof name === 'string' ? ` ${name}` : ''}]`;
}

/** Text as it reads, blocks by their text or kind, other objects as compact JSON. */
function contentPreview(content: unknown): string {
  if (typeof content === 'string') return clip(content);
  if (Array.isArray(content)) return clip(content.map(blockPreview).join(' '));
  return clip(JSON.stringify(content));
}

export function renderMessage(message: MessageView): string {
  const speaker = message.name ? `${message.role} ${message.name}` : message.role;
  return `- [${speaker}] ${contentPreview(message.content)} (${message.id}, ${message.created})`;
}

function nextLine(next: string | null): string[] {
  return next ? [`More results: call again with next="${next}".`] : [];
}

function dialogueHeadline(dialogue: DialogueView): string {
  const facts = [
    dialogue.status,
    plural(dialogue.totalMessages, 'message'),
    dialogue.namespace ? `namespace "${dialogue.namespace}"` : '',
    dialogue.threadOf ? `thread of ${dialogue.threadOf}` : '',
    dialogue.tags.length > 0 ? `tags ${dialogue.tags.join(', ')}` : '',
    `created ${dialogue.created}`,
  ].filter(Boolean);
  const label = dialogue.label ? ` "${dialogue.label}"` : '';
  return `Dialogue ${dialogue.id}${label}: ${facts.join(', ')}.`;
}

export function renderDialogue(dialogue: DialogueView): string {
  const lines = [dialogueHeadline(dialogue)];
  const stateKeys = Object.keys(dialogue.state);
  if (stateKeys.length > 0) lines.push(`State keys: ${stateKeys.join(', ')}.`);
  if (dialogue.summary) lines.push(`Summary: ${clip(dialogue.summary.text, 1000)}`);
  if (dialogue.messages && dialogue.messages.length > 0) {
    lines.push(`Messages (${dialogue.messages.length} shown, oldest first):`);
    lines.push(...dialogue.messages.map(renderMessage));
  }
  return lines.join('\n');
}

export function renderDialogueList(page: Page<DialogueView>): string {
  return [
    `${plural(page.items.length, 'dialogue')} on this page.`,
    ...page.items.map((dialogue) => `- ${dialogueHeadline(dialogue)}`),
    ...nextLine(page.next),
  ].join('\n');
}

export function renderMessageList(page: Page<MessageView>): string {
  return [
    `${plural(page.items.length, 'message')} on this page.`,
    ...page.items.map(renderMessage),
    ...nextLine(page.next),
  ].join('\n');
}

export function renderAddedMessages(batch: {
  dialogueId: string;
  items: MessageView[];
  totalMessages: number;
}): string {
  return [
    `Added ${plural(batch.items.length, 'message')} to dialogue ${batch.dialogueId}; it now holds ${batch.totalMessages}.`,
    ...batch.items.map(renderMessage),
  ].join('\n');
}

function memoryLine(memory: MemoryView): string {
  const label = memory.label ? ` "${memory.label}"` : '';
  const where = memory.namespace ? ` [namespace "${memory.namespace}"]` : '';
  const tags = memory.tags.length > 0 ? ` (tags ${memory.tags.join(', ')})` : '';
  return `Memory ${memory.id}${label}${where}${tags}: ${memoryValuePreview(memory.value)}`;
}

/** A memory's value as it reads: text as it is, anything else as compact JSON (D57). */
export function memoryValuePreview(value: unknown): string {
  return contentPreview(value);
}

export const renderMemory = memoryLine;

export function renderMemoryList(page: Page<MemoryView>): string {
  return [
    `${plural(page.items.length, 'memory', 'memories')} on this page.`,
    ...page.items.map((memory) => `- ${memoryLine(memory)}`),
    ...nextLine(page.next),
  ].join('\n');
}

/** A search result's item is a message, a dialogue or a memory record, told apart by its fields. */
function searchItemLine(item: Record<string, unknown>): string {
  if ('role' in item) {
    const message = item as unknown as MessageView & { dialogueId: string };
    return `${renderMessage(message).slice(2)} in dialogue ${message.dialogueId}`;
  }
  if ('value' in item) return memoryLine(item as unknown as MemoryView);
  return dialogueHeadline(item as unknown as DialogueView);
}

export function renderSearch(found: {
  results: { relevance: number; item: Record<string, unknown> }[];
  mode: string;
}): string {
  return [
    `${plural(found.results.length, 'result')} (${found.mode} search), best first:`,
    ...found.results.map(({ relevance, item }) => `- ${relevance.toFixed(2)} ${searchItemLine(item)}`),
  ].join('\n');
}

export function renderDeleted(noun: string) {
  return (result: { id: string }) => `Deleted ${noun} ${result.id} permanently.`;
}

interface ContextView {
  format: string;
  tokens: number;
  omittedMessages: number;
  fromMessageId: string | null;
  text: string | null;
  system: string | null;
  messages: { role: string }[] | null;
}

/** D81: what the context holds; its full text is in the structured result. */
export function renderContext(context: ContextView): string {
  const turns = context.messages?.length ?? 0;
  const head = `Context (${context.format}): ${context.tokens} tokens, ${context.format === 'text' ? 'a transcript' : plural(turns, 'turn')}; ${plural(context.omittedMessages, 'older message')} left out${context.fromMessageId ? `, starting at ${context.fromMessageId}` : ''}.`;
  const body = context.text ?? context.system;
  return body === null ? head : `${head}\n${clip(body, PREVIEW_CHARS * 2)}`;
}

interface EventView {
  seq: number;
  type: string;
  created: string;
  dialogueId: string | null;
  objectId: string;
}

/** D71: one line per change; the full events (with their data) are in the structured result. */
export function renderEventList(page: { items: EventView[]; next: number }): string {
  return [
    `${plural(page.items.length, 'event')}, oldest first.`,
    ...page.items.map(
      (event) =>
        `- #${event.seq} ${event.created} ${event.type} ${event.objectId}` +
        (event.dialogueId && event.dialogueId !== event.objectId ? ` in dialogue ${event.dialogueId}` : ''),
    ),
    `Next time pass after: ${page.next} to see only newer changes.`,
  ].join('\n');
}
