import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import { keysetCursor } from '../core/cursor.js';
import { logAnswered, toClientError } from '../http/error-handler.js';
import { stringifyWithRawJson } from '../core/raw-json.js';
import { memoryValuePreview } from './render.js';
import type { ProjectContext } from '../core/context.js';

// MCP resources: `parley://dialogue/{id}` (the dialogue with its 10 most recent messages, as
// get_dialogue returns it) and `parley://memory/{id}`. Listed newest first, a page of each kind at
// a time, and read through the same services as REST.

/** MCP "Resources": the error code of an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;
const LIST_PAGE = 50;
const CURSOR_KIND = 'mcp-resources';
const JSON_TYPE = 'application/json';

interface Page {
  resources: Resource[];
  next: string | null;
}

interface ResourceKind {
  template: ResourceTemplate;
  read(id: string, request: FastifyRequest, ctx: ProjectContext): Promise<unknown>;
  list(next: string | undefined, request: FastifyRequest, ctx: ProjectContext): Promise<Page>;
}

const kinds: Record<string, ResourceKind> = {
  dialogue: {
    template: {
      uriTemplate: 'parley://dialogue/{id}',
      name: 'dialogue',
      title: 'Dialogue',
      description:
        'A dialogue of this project with its 10 most recent messages, oldest first (as get_dialogue)',
      mimeType: JSON_TYPE,
    },
    read: (id, request, ctx) => request.server.services.dialogues.get(ctx, id),
    async list(next, request, ctx) {
      const query = { query: 'default', order: 'desc', limit: LIST_PAGE, next } as const;
      const page = await request.server.services.dialogues.list(ctx, query);
      return {
        resources: page.items.map((dialogue) => ({
          uri: `parley://dialogue/${encodeURIComponent(dialogue.id)}`,
          name: dialogue.id,
          title: dialogue.label ?? `Dialogue ${dialogue.id}`,
          description: `${dialogue.status}, ${dialogue.totalMessages} messages, created ${dialogue.created}`,
          mimeType: JSON_TYPE,
        })),
        next: page.next,
      };
    },
  },
  memory: {
    template: {
      uriTemplate: 'parley://memory/{id}',
      name: 'memory',
      title: 'Memory',
      description: 'A memory of this project: its label, value, namespace and tags',
      mimeType: JSON_TYPE,
    },
    read: (id, request, ctx) => request.server.services.memories.get(ctx, id),
    async list(next, request, ctx) {
      const query = { tag: [], order: 'desc' as const, limit: LIST_PAGE, next };
      const page = await request.server.services.memories.list(ctx, query);
      return {
        resources: page.items.map((memory) => ({
          uri: `parley://memory/${encodeURIComponent(memory.id)}`,
          name: memory.id,
          title: memory.label ?? `Memory ${memory.id}`,
          description: memoryValuePreview(memory.value.parse()),
          mimeType: JSON_TYPE,
        })),
        next: page.next,
      };
    },
  },
};

const kindNames = Object.keys(kinds);
const RESOURCE_URI = /^parley:\/\/([a-z]+)\/([^/?#]+)$/;

function parseUri(uri: string): { kind: ResourceKind; id: string } | undefined {
  const match = RESOURCE_URI.exec(uri);
  const kind = match ? kinds[match[1]!] : undefined;
  if (!match || !kind) return undefined;
  try {
    return { kind, id: decodeURIComponent(match[2]!) };
  } catch {
    return undefined; // malformed percent-encoding
  }
}

/** A service error as a JSON-RPC error: the REST code travels in `data`. */
function rpcError(error: unknown, request: FastifyRequest): McpError {
  if (error instanceof McpError) return error;
  const clientError = toClientError(error);
  logAnswered(request, error, clientError, 'MCP resource read');
  const code =
    clientError.status === 404
      ? RESOURCE_NOT_FOUND
      : clientError.status < 500
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  return new McpError(code, clientError.message, { code: clientError.code, requestId: request.id });
}

/**
 * The list cursor holds one list cursor per kind ('' once a kind is exhausted); the first page
 * starts every kind.
 */
const listCursor = keysetCursor(
  CURSOR_KIND,
  kindNames.map(() => 'string' as const),
  (nexts: string[]) => nexts,
);

function decodeListCursor(cursor: string | undefined): (string | null | undefined)[] {
  if (cursor === undefined) return kindNames.map(() => undefined);
  return listCursor.decode(cursor).map((part) => (part === '' ? null : part));
}

export function serveResources(server: Server, request: FastifyRequest): void {
  const ctx: ProjectContext = { projectId: request.auth.projectId, settings: request.auth.settings };

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: kindNames.map((name) => kinds[name]!.template),
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (message) => {
    try {
      const cursors = decodeListCursor(message.params?.cursor);
      const resources: Resource[] = [];
      const nexts: string[] = [];
      for (const [index, name] of kindNames.entries()) {
        const cursor = cursors[index];
        if (cursor === null) {
          nexts.push('');
          continue;
        }
        const page = await kinds[name]!.list(cursor, request, ctx);
        resources.push(...page.resources);
        nexts.push(page.next ?? '');
      }
      const more = nexts.some((next) => next !== '');
      return more ? { resources, nextCursor: listCursor.encode(nexts) } : { resources };
    } catch (error) {
      throw rpcError(error, request);
    }
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (message) => {
    const { uri } = message.params;
    const target = parseUri(uri);
    if (!target) {
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `No resource ${uri}: use parley://dialogue/{id} or parley://memory/{id}`,
      );
    }
    try {
      const record = await target.kind.read(target.id, request, ctx);
      // The exact JSON, message content byte for byte (D28).
      return { contents: [{ uri, mimeType: JSON_TYPE, text: stringifyWithRawJson(record) }] };
    } catch (error) {
      throw rpcError(error, request);
    }
  });
}
