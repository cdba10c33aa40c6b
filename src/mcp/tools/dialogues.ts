import { z } from 'zod';
import {
  createDialogueBody,
  dialogueListSchema,
  dialogueSchema,
  dialogueWithMessagesSchema,
  forkDialogueBody,
  getDialogueQuery,
  listDialoguesQuery,
  stateBody,
  updateDialogueBody,
} from '../../modules/dialogues/schemas.js';
import { dialogueMessageInputs } from '../../http/message-inputs.js';
import { contextQuery, contextSchema } from '../../modules/context/schemas.js';
import { renderContext, renderDialogue, renderDialogueList } from '../render.js';
import { readTool, stagedWriteTool, writeTool } from '../tool-kit.js';

// D42: dialogue tools. Each is one call into the dialogue service that REST uses; the contracts
// are the REST schemas (`.extend` gives each tool its own root schema, without the OpenAPI id).

export const dialogueIdArgument = z
  .string()
  .min(1)
  .max(255)
  .describe('Id of the dialogue (dlg_...), as returned by create_dialogue, list_dialogues or search');

const dialogueOnly = z.object({ dialogueId: dialogueIdArgument });

export const createDialogue = writeTool({
  name: 'create_dialogue',
  title: 'Create a dialogue',
  description:
    'Starts a new stored conversation (a dialogue) and returns it with its id. Use it once at the ' +
    'start of a conversation you want to keep; add later turns with add_messages. Optionally pass ' +
    'the first turns in `messages` (up to 25, stored in order; `message` is added after them), a ' +
    '`namespace` to keep one end user apart from others (every later message call must then pass the ' +
    'same namespace), `label`, `tags`, immutable `metadata`, free-form `state`, and `threadOf` (a ' +
    'parent dialogue id) to make it a thread. Message content may be text, an array of blocks or an ' +
    'object and is returned exactly as sent. `expiresAt` (ISO date-time) makes the dialogue vanish ' +
    'and be erased at that moment.',
  input: createDialogueBody.extend({}),
  output: dialogueWithMessagesSchema.extend({}),
  render: renderDialogue,
  write: (tx, { message, messages, ...fields }, call) =>
    call.services.dialogues.create(tx, call.ctx, {
      ...fields,
      messages: dialogueMessageInputs(call.request, { message, messages }, call.at()),
    }),
});

export const getDialogue = readTool({
  name: 'get_dialogue',
  title: 'Get a dialogue',
  description:
    'Returns one dialogue: its status, tags, label, state, summary, message count and its 10 most ' +
    'recent messages, oldest first (`messages: "first"` returns the first 10 instead). Use it to ' +
    'pick up a conversation where it stopped; use list_messages to read all messages page by page.',
  input: dialogueOnly.extend({ messages: getDialogueQuery.shape.messages }),
  output: dialogueWithMessagesSchema.extend({}),
  render: renderDialogue,
  read: ({ dialogueId, messages }, call) => call.services.dialogues.get(call.ctx, dialogueId, { messages }),
});

export const getContext = readTool({
  name: 'get_context',
  title: 'Get the context to send a model',
  description:
    'Returns what to send a model to carry on a dialogue within a token budget: the dialogue summary ' +
    'first (if there is one and it fits), then the newest messages that fit in `maxTokens` (default ' +
    '4000), oldest first, never cut. `format` "messages" (default) gives OpenAI chat messages, ' +
    '"anthropic" a `system` text plus user/assistant turns, "text" one transcript. `omittedMessages` ' +
    'says how many older messages were left out; compact_dialogue first to have them summarized.',
  input: dialogueOnly.extend({
    maxTokens: contextQuery.shape.maxTokens,
    format: contextQuery.shape.format,
  }),
  output: contextSchema.extend({}),
  render: renderContext,
  read: ({ dialogueId, ...query }, call) => call.services.context.context(call.ctx, dialogueId, query),
});

export const listDialogues = readTool({
  name: 'list_dialogues',
  title: 'List dialogues',
  description:
    'Lists dialogues of the project, newest first (`order: "asc"` for oldest first), without their ' +
    'messages. Filter by `namespace`, `status` ("active", "ended"), `tag` (all given tags must be ' +
    'present), `date` (a UTC day YYYY-MM-DD or an interval start/end) or `threadOf` with ' +
    '`query: "threads"` for the threads of a dialogue. Returns `items` and `next`: pass `next` back ' +
    'to get the following page; null means the last page. To find dialogues by what was said, use ' +
    'search with `object: "dialogue"` instead.',
  input: listDialoguesQuery.extend({}),
  output: dialogueListSchema.extend({}),
  render: renderDialogueList,
  read: (args, call) => call.services.dialogues.list(call.ctx, args),
});

export const updateDialogue = writeTool({
  name: 'update_dialogue',
  title: 'Update a dialogue',
  description:
    'Changes an active dialogue: `tags` replaces the whole tag list, `label` sets the label (null ' +
    'clears it), `state` is merged into the state as a JSON Merge Patch (a null value removes a ' +
    'key), `messages` / `message` are appended (at most 25), and `expiresAt` sets when the dialogue ' +
    'is erased (null: never; allowed on ended dialogues too). Metadata, namespace and status ' +
    'cannot change here. An ended dialogue refuses (DIALOGUE_ENDED); to change only the state of ' +
    'any dialogue, ended or not, use update_state.',
  input: updateDialogueBody.extend({ dialogueId: dialogueIdArgument }),
  output: dialogueWithMessagesSchema.extend({}),
  render: renderDialogue,
  write: (tx, { dialogueId, message, messages, ...patch }, call) =>
    call.services.dialogues.update(tx, call.ctx, dialogueId, {
      ...patch,
      messages: dialogueMessageInputs(call.request, { message, messages }, call.at()),
    }),
});

export const updateState = writeTool({
  name: 'update_state',
  title: 'Update dialogue state',
  description:
    "Merges `state` into a dialogue's free-form state object (JSON Merge Patch: keys given are set, " +
    'a null value removes the key, other keys stay) and returns the dialogue. Use it for working ' +
    'memory of one conversation such as the current step or collected slots. Works on ended ' +
    'dialogues too.',
  input: dialogueOnly.extend({ state: stateBody.describe('The patch to merge into the state') }),
  output: dialogueSchema.extend({}),
  render: renderDialogue,
  write: (tx, { dialogueId, state }, call) =>
    call.services.dialogues.updateState(tx, call.ctx, dialogueId, state),
});

export const endDialogue = writeTool({
  name: 'end_dialogue',
  title: 'End a dialogue',
  description:
    'Marks a dialogue as ended when the conversation is over. An ended dialogue accepts no new ' +
    'messages and no update_dialogue, but can still be read, searched, compacted and have its state ' +
    'changed. Ending an ended dialogue changes nothing. Returns the dialogue.',
  input: dialogueOnly,
  output: dialogueSchema.extend({}),
  annotations: { idempotentHint: true },
  render: renderDialogue,
  write: (tx, { dialogueId }, call) => call.services.dialogues.end(tx, call.ctx, dialogueId),
});

export const compactDialogue = stagedWriteTool({
  name: 'compact_dialogue',
  title: 'Summarize a dialogue',
  description:
    'Writes a summary of the whole dialogue and stores it on the dialogue as `summary` (text, model, ' +
    'messageCount, upToMessageId, created), so that a long conversation can be carried on with fewer ' +
    'tokens: read the summary instead of every message. Compacting again later adds only the newer ' +
    'messages to the summary; with no new messages it changes nothing. Messages are kept as they are. ' +
    'Works on ended dialogues. Returns the dialogue.',
  input: dialogueOnly,
  output: dialogueSchema.extend({}),
  annotations: { idempotentHint: true },
  render: renderDialogue,
  staged: ({ dialogueId }, call) => call.services.compaction.compact(call.ctx, dialogueId),
});

export const forkDialogue = writeTool({
  name: 'fork_dialogue',
  title: 'Fork a dialogue',
  description:
    'Creates a new dialogue holding copies of the messages of an existing one, up to and including ' +
    '`upToMessageId` (every message when left out), to try another turn from that point without ' +
    'touching the original. The copies have new ids and keep their content and time; the fork shows ' +
    "`forkedFrom` and keeps the original's namespace, tags and label unless given. Returns the fork.",
  input: forkDialogueBody.extend({ dialogueId: dialogueIdArgument }),
  output: dialogueSchema.extend({}),
  render: renderDialogue,
  write: (tx, { dialogueId, ...input }, call) =>
    call.services.dialogues.fork(tx, call.ctx, dialogueId, input),
});
