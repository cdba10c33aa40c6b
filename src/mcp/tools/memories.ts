import { z } from 'zod';
import {
  createMemoryBody,
  deletedResponse,
  listMemoriesQuery,
  memoryListResponse,
  memoryNamespaceQuery,
  memorySchema,
} from '../../modules/memories/schemas.js';
import { rawJsonAt } from '../../http/json-body.js';
import { renderDeleted, renderMemory, renderMemoryList } from '../render.js';
import { readTool, writeTool } from '../tool-kit.js';

// D42: memory tools, one call each into the memory service that REST uses.

const memoryLocator = memoryNamespaceQuery.extend({
  memoryId: z
    .string()
    .min(1)
    .max(128)
    .describe('Id of the memory (mem_...), as returned by create_memory, list_memories or search'),
});

export const createMemory = writeTool({
  name: 'create_memory',
  title: 'Create a memory',
  description:
    'Stores a long-term memory: a `value` (text, or any JSON value such as an object or a list; up ' +
    'to 64 KiB) with an optional short `label`, a searchable `description`, ' +
    '`namespace` (for example one per end user), `tags` and `metadata`. Use it for facts, ' +
    'preferences or decisions worth keeping beyond one conversation; find them later with search ' +
    '(`object: "memory"`) or list_memories. `expiresAt` (ISO date-time) makes the memory vanish ' +
    'and be erased at that moment, for facts that hold only for a while.',
  input: createMemoryBody,
  output: memorySchema.extend({}),
  render: renderMemory,
  // D57: the value as the exact JSON text the client sent (D28).
  write: (tx, args, call) =>
    call.services.memories.create(tx, call.ctx, {
      ...args,
      value: rawJsonAt(call.request, call.at('value'))!,
    }),
});

export const listMemories = readTool({
  name: 'list_memories',
  title: 'List memories',
  description:
    'Lists memories, newest first (`order: "asc"` for oldest first), filtered by `namespace`, exact ' +
    '`label` or `tag` (all given tags must be present). Returns `items` and `next`: pass `next` back ' +
    'for the following page; null means the last page. To find memories by meaning, use search ' +
    'with `object: "memory"`.',
  input: listMemoriesQuery,
  output: memoryListResponse.extend({}),
  render: renderMemoryList,
  read: (query, call) => call.services.memories.list(call.ctx, query),
});

export const getMemory = readTool({
  name: 'get_memory',
  title: 'Get a memory',
  description:
    'Returns one memory by its id: value, label, namespace, tags and metadata. With `namespace`, a ' +
    'memory of another namespace is not found.',
  input: memoryLocator,
  output: memorySchema.extend({}),
  render: renderMemory,
  read: ({ memoryId, namespace }, call) => call.services.memories.get(call.ctx, memoryId, namespace),
});

export const deleteMemory = writeTool({
  name: 'delete_memory',
  title: 'Delete a memory',
  description:
    'Deletes one memory permanently, with its embedding, when it is wrong or no longer wanted. ' +
    'Returns {success, id}. With `namespace`, a memory of another namespace is not found.',
  input: memoryLocator,
  output: deletedResponse.extend({}),
  annotations: { destructiveHint: true, idempotentHint: false },
  render: renderDeleted('memory'),
  write: (tx, { memoryId, namespace }, call) =>
    call.services.memories.remove(tx, call.ctx, memoryId, namespace),
});
