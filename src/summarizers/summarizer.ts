import type { MessageRole } from '../core/fields.js';
// D22: one interface for every way of writing a dialogue's summary. A summarizer sees plain text
// only; turning stored message content into text is the caller's business.

export interface SummaryMessage {
  id: string;
  role: MessageRole;
  name: string | null;
  /** Plain text of the message content. */
  text: string;
}

export interface SummaryInput {
  /**
   * The dialogue's previous summary when compaction is incremental: the new summary must cover
   * it and `messages` (the messages after it) without the older messages being read again.
   */
  previous: string | null;
  messages: readonly SummaryMessage[];
}

export interface Summarizer {
  /** Who runs the model, stored in a summary record's `provider` (D56): `parley` or `openai`. */
  readonly provider: string;
  /** The name stored in `summary.model`. */
  readonly model: string;
  /** The length budget of a summary, in tokens (see tokens.ts). */
  readonly maxSummaryTokens: number;
  summarize(input: SummaryInput): Promise<string>;
}

/** How a message's speaker is written in summaries and prompts: `Ana (user)` or `user`. */
export function speakerOf(message: Pick<SummaryMessage, 'role' | 'name'>): string {
  // A name is one short line, so that a speaker label can never pass for conversation text.
  const name = message.name?.replace(/\s+/g, ' ').trim().slice(0, 64);
  return name ? `${name} (${message.role})` : message.role;
}
