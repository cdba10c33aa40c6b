import { z } from 'zod';
import { eventListResponse, listEventsQuery, typeFilter } from '../../modules/events/schemas.js';
import { renderEventList } from '../render.js';
import { readTool } from '../tool-kit.js';

// D71: the change feed for an agent, with the arguments of GET /events (`type` as a list).

export const listEvents = readTool({
  name: 'list_events',
  title: 'List what changed',
  description:
    'Lists the changes of this project, oldest first: dialogues, messages and memories created, ' +
    'updated, ended, compacted, continued or deleted. Pass `after` the `next` of your previous call ' +
    'to see only what changed since then (0 or absent: from the oldest kept). Filter by `type` ' +
    '(for example ["message.created"] or ["memory.*"]), `dialogueId` or `namespace`. Deleted ' +
    'content shows as `{id, deleted: true}`. Events are kept for a few days; an `after` older than ' +
    'that is refused with EVENTS_EXPIRED: start again from 0.',
  input: listEventsQuery.extend({
    type: z.array(typeFilter).max(20).optional().describe('Events of any of these types'),
  }),
  output: eventListResponse.extend({}),
  render: renderEventList,
  read: (query, call) => call.services.events.list(call.ctx, query),
});
