import { searchBody, searchResponse } from '../../modules/search/schemas.js';
import { renderSearch } from '../render.js';
import { readTool } from '../tool-kit.js';

// D39, D42: one search tool over messages, dialogues and memories; a read (D44).

export const search = readTool({
  name: 'search',
  title: 'Search messages, dialogues or memories',
  description:
    'Finds stored messages (default), dialogues or memories (`object`) by meaning and by words at ' +
    'once, best match first. Use it to recall what was said or decided earlier when you do not ' +
    'know where: `query` is natural language or exact words, names and ids (3-2000 characters). ' +
    'Narrow it with `namespace` (without it, only items that have no namespace are searched), ' +
    '`dialogueId` (messages of one dialogue), `tag`, `limit` (default 10, max 100) and ' +
    '`minRelevance` (0-1). Returns `results` as [{relevance, item}] where item is the full record ' +
    '(a message with its content, a dialogue, or a memory), and `mode` (hybrid, semantic or lexical).',
  input: searchBody,
  output: searchResponse.extend({}),
  render: renderSearch,
  read: (input, call) => call.services.search.search(call.ctx, input),
});
