import type { ProjectContext } from '../../core/context.js';
import { RawJson } from '../../core/raw-json.js';
import type { Executor } from '../../db/client.js';
import { countTokens } from '../../lib/tokens.js';
import { type ContextMessageRow, newestMessagesAfter } from './repository.js';
import type { DialogueScope } from '../dialogues/scope.js';
import type { ContextFormat, ContextQuery, DialogueContext } from './schemas.js';

// D81: what to send a model next. The dialogue's summary first, then the newest messages its
// summary does not cover, as many as fit in the budget, oldest first and never cut. Tokens are
// counted on each part's text as a reader sees it (`role: text`), with the summarizer's tokenizer;
// the JSON syntax a chat API wraps around it adds a few tokens per message that are not counted
// (docs/api-decisions.md, "Prompt-ready context").

/** Messages read per round trip while filling the budget. */
const PAGE = 50;

const SUMMARY_LABEL = 'Summary of the earlier conversation';

interface Part {
  role: string;
  name: string | null;
  /** The stored content (D28). */
  content: RawJson;
  /** The content as text for a transcript or a system prompt. */
  text: string;
  id: string;
}

interface ContextDeps {
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Executor;
  /** The dialogue (its summary); the dialogues table is the dialogues module's own. */
  dialogueScope: Pick<DialogueScope, 'findGivenNamespace'>;
}

/** A block's text, or its kind in brackets (`[image_url]`), so that a transcript shows it was there. */
function blockText(block: unknown): string {
  const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
  if (typeof text === 'string') return text;
  return `[${typeof type === 'string' ? type : 'block'}]`;
}

/** Content as text: text as it is, blocks by their text, any other object as its JSON text. */
function contentAsText(content: RawJson): string {
  const value = content.parse();
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(blockText).join('\n');
  return content.text;
}

const speaker = (part: { role: string; name: string | null }) =>
  part.name ? `${part.role} (${part.name})` : part.role;

const partTokens = (part: Part) => countTokens(`${speaker(part)}: ${part.text}`);

function toPart(row: ContextMessageRow): Part {
  const content = new RawJson(row.content);
  return { id: row.id, role: row.role, name: row.name, content, text: contentAsText(content) };
}

/** OpenAI chat: the summary as the first system message; content as stored where the API takes it. */
function asChatMessages(summary: string | null, parts: Part[]): DialogueContext['messages'] {
  const turns: NonNullable<DialogueContext['messages']> = [];
  if (summary !== null) turns.push({ role: 'system', content: `${SUMMARY_LABEL}:\n${summary}` });
  for (const part of parts) {
    const value = part.content.parse();
    const content = typeof value === 'string' || Array.isArray(value) ? part.content : part.text;
    turns.push({ role: part.role, content, ...(part.name ? { name: part.name } : {}) });
  }
  return turns;
}

/**
 * Anthropic Messages: `system` holds the summary and the system and developer texts; the turns are
 * user and assistant only, a tool's output a user turn with a `tool_result` block (its call id is
 * the message's `name`, where D80 says it can live).
 */
function asAnthropic(summary: string | null, parts: Part[]) {
  const system: string[] = summary === null ? [] : [`${SUMMARY_LABEL}:\n${summary}`];
  const turns: NonNullable<DialogueContext['messages']> = [];
  for (const part of parts) {
    if (part.role === 'system' || part.role === 'developer') system.push(part.text);
    else if (part.role === 'tool') {
      turns.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: part.name ?? part.id, content: part.text }],
      });
    } else turns.push({ role: part.role, content: part.text });
  }
  return { system: system.length > 0 ? system.join('\n\n') : null, messages: turns };
}

/** A transcript: the summary, then one `role: text` block per message. */
function asTranscript(summary: string | null, parts: Part[]): string {
  const blocks = summary === null ? [] : [`${SUMMARY_LABEL}: ${summary}`];
  for (const part of parts) blocks.push(`${speaker(part)}: ${part.text}`);
  return blocks.join('\n\n');
}

function render(format: ContextFormat, summary: string | null, parts: Part[]) {
  switch (format) {
    case 'messages':
      return { messages: asChatMessages(summary, parts), system: null, text: null };
    case 'anthropic':
      return { ...asAnthropic(summary, parts), text: null };
    case 'text':
      return { messages: null, system: null, text: asTranscript(summary, parts) };
  }
}

export function createContextService({ readDb, dialogueScope }: ContextDeps) {
  return {
    /**
     * GET /dialogue/{id}/context (D81). The summary is included when it fits the budget alone;
     * messages are taken newest first while the next one still fits, so the oldest kept is
     * `fromMessageId` and everything older is counted in `omittedMessages`.
     */
    async context(
      ctx: ProjectContext,
      id: string,
      query: Pick<ContextQuery, 'maxTokens' | 'format'>,
    ): Promise<DialogueContext> {
      // D53's namespace rule is the route's (as for every route naming a dialogue in its path):
      // no namespace is given here.
      const row = await dialogueScope.findGivenNamespace(readDb, ctx, { id, namespace: undefined });
      const summaryText = row.summary?.text ?? null;
      const summaryTokens = summaryText === null ? 0 : countTokens(`${SUMMARY_LABEL}: ${summaryText}`);
      const summary = summaryText !== null && summaryTokens <= query.maxTokens ? summaryText : null;
      let tokens = summary === null ? 0 : summaryTokens;
      // Without a recorded reach the summary may cover any message: every message is a candidate.
      const coveredSeq = row.summary ? (row.summaryCoversSeq ?? 0) : 0;

      const newestFirst: Part[] = [];
      let before: ContextMessageRow | undefined;
      fill: for (;;) {
        const rows = await newestMessagesAfter(
          readDb,
          ctx.projectId,
          id,
          coveredSeq,
          before && { created: before.created, seq: before.seq },
          PAGE,
        );
        for (const message of rows) {
          const part = toPart(message);
          const cost = partTokens(part);
          if (tokens + cost > query.maxTokens) break fill;
          tokens += cost;
          newestFirst.push(part);
        }
        if (rows.length < PAGE) break;
        before = rows[rows.length - 1];
      }
      const parts = newestFirst.reverse();
      return {
        format: query.format,
        ...render(query.format, summary, parts),
        tokens,
        omittedMessages: row.totalMessages - parts.length,
        fromMessageId: parts[0]?.id ?? null,
      };
    },
  };
}

export type ContextService = ReturnType<typeof createContextService>;
