import { searchBody, searchResponse } from '../../modules/search/schemas.js';
import type { SearchAnswer } from '../../modules/search/service.js';
import { renderMessage, renderSearch } from '../render.js';
import { readTool } from '../tool-kit.js';

// D39, D42, D59: one search tool over messages, dialogues and memories, with REST's body as its
// arguments; a read (D44).

const orderPhrase = ({ orderBy, order }: SearchAnswer['request']): string =>
  orderBy === 'relevance'
    ? order === 'desc'
      ? 'best first'
      : 'best last'
    : `${order === 'desc' ? 'newest' : 'oldest'} ${orderBy === 'created' ? 'created' : 'modified'} first`;

/** The readable digest: the result lines, then each dialogue's best messages (`matches`). */
function renderFound(found: SearchAnswer): string {
  const text = renderSearch(found).replace(', best first:', `, ${orderPhrase(found.request)}:`);
  const matchLines = found.results.flatMap((result) =>
    result.object === 'dialogue' && result.matches.length > 0
      ? [
          `Best messages of dialogue ${result.item.id}:`,
          ...result.matches.map((match) => `  ${renderMessage(match.item)}`),
        ]
      : [],
  );
  return matchLines.length > 0 ? `${text}\n${matchLines.join('\n')}` : text;
}

export const search = readTool({
  name: 'search',
  title: 'Search messages, dialogues or memories',
  description:
    'Finds stored messages (default), dialogues or memories (`object`) by meaning and by words at ' +
    'once, best match first. Use it to recall what was said or decided earlier when you do not ' +
    'know where: `query` is natural language or exact words, names and ids (3-2000 characters). ' +
    'Without `namespace` the whole project is searched; with it, only that namespace. Narrow it with ' +
    '`dialogueId` (messages of one dialogue; give its namespace too if it has one), `tag` or `tags` ' +
    '(an array: all required, or {$in, $all, $nin}), `metadata` ({field: value} or {field: {$eq, ' +
    '$ne, $in, $nin, $gt, $gte, $lt, $lte}}), `filter` ({created, modified}: an ISO date for that ' +
    'day in `timezone`, or a range {gte, gt, lte, lt}; `hasImage`), `limit` (default 10, max 100) ' +
    'and `minRelevance` (0-1). `orderBy` (relevance, created, modified) and `order` (desc, asc) ' +
    'order the best `limit` matches. Returns `results` as [{object, relevance, item, matches?}] where ' +
    'item is the full record (a message with its content, a dialogue, or a memory) and a dialogue ' +
    'carries `matches`, its best messages; `mode` (hybrid, semantic or lexical); and `request`, the ' +
    'filters as applied.',
  input: searchBody,
  output: searchResponse.extend({}),
  render: renderFound,
  read: (input, call) => call.services.search.search(call.ctx, input),
});
