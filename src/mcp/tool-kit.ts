import { createHash } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/client.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { errorBody } from '../core/error-envelope.js';
import { logAnswered, toClientError } from '../http/error-handler.js';
import { stringifyWithRawJson } from '../core/raw-json.js';
import { parseRequestPart, toAppError } from '../core/validation.js';
import type { ProjectContext } from '../core/context.js';
import {
  type Idempotency,
  type StagedWrite,
  type WriteOutcome,
  type WriteTx,
  runStagedWrite,
  runWrite,
} from '../db/unit-of-work.js';
import type { CompactionService } from '../modules/summaries/compaction.js';
import type { ContextService } from '../modules/context/service.js';
import type { DialogueService } from '../modules/dialogues/service.js';
import type { MemoryService } from '../modules/memories/service.js';
import type { MessageService } from '../modules/messages/service.js';
import type { SearchService } from '../modules/search/service.js';
import type { EventService } from '../modules/events/service.js';
import type { ErasureService } from '../modules/erasures/service.js';

// The layer between MCP and the services (D42): every tool is a zod contract in and out, one
// service call, and a readable rendering. Arguments are validated here rather than by the SDK so
// that a bad argument gets the same code as the same mistake in a REST body (INVALID_INPUT,
// MISSING_PARAMETER, TOO_MANY_MESSAGES, ...); the SDK's own validation only knows one message.

type BodyPath = (string | number)[];

/**
 * The services the tools call, named by their modules' types rather than by `Services` from
 * services.ts: MCP sits below composition (docs/architecture.md), which hands it these.
 */
interface McpServices {
  dialogues: DialogueService;
  compaction: CompactionService;
  context: ContextService;
  messages: MessageService;
  memories: MemoryService;
  search: SearchService;
  events: EventService;
  erasures: ErasureService;
}

/** What a tool gets besides its arguments: the caller's project and the HTTP request. */
export interface ToolCall {
  request: FastifyRequest;
  ctx: ProjectContext;
  services: McpServices;
  /**
   * Where an argument sits in the HTTP body of this JSON-RPC request, for `rawJsonAt` and
   * `messageInputAt`: message content is stored as the exact text the client sent (D28), over
   * MCP as over REST.
   */
  at(...path: BodyPath): BodyPath;
}

interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model choosing tools: what it does, when to use it, what it returns. */
  description: string;
  input: I;
  output: O;
  annotations?: ToolAnnotations;
  /**
   * A short readable rendering of the result (the structured result, with message content as
   * parsed JSON), the one text block beside structuredContent.
   */
  render(result: z.output<O>): string;
}

export interface ReadToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends ToolSpec<I, O> {
  read(args: z.output<I>, call: ToolCall): Promise<unknown>;
}

export interface WriteToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends ToolSpec<I, O> {
  /** Runs inside the write's transaction, with the write guards (D44) and nothing else around it. */
  write(tx: Executor, args: z.output<I>, call: ToolCall): Promise<unknown>;
  /** The same write as one statement, tried first where it can be, as REST's appends are (D174). */
  standalone?(db: WriteTx, guards: SQL[], args: z.output<I>, call: ToolCall): Promise<unknown>;
}

export interface StagedWriteToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends ToolSpec<I, O> {
  /**
   * The write in two steps, work outside any transaction first (a model writing a summary, D22),
   * then the transaction: run by the unit of work's `runStagedWrite`, as REST's staged writes are.
   */
  staged(args: z.output<I>, call: ToolCall): StagedWrite<unknown, unknown>;
}

export interface McpTool {
  definition: Tool;
  input: z.ZodObject;
  /** Runs the tool on validated arguments; returns the result as JSON text (content verbatim, D28). */
  run(args: unknown, call: ToolCall): Promise<string>;
  render(result: unknown): string;
}

type JsonSchema = Record<string, unknown>;

/**
 * Replaces every `$ref` to a named definition (the REST schemas carry OpenAPI component ids) by the
 * definition itself: a model reads one self-contained schema per tool, and several MCP clients and
 * model APIs do not follow references.
 */
function inlineDefinitions(node: unknown, definitions: Record<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineDefinitions(item, definitions));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, allOf, ...rest } = node as JsonSchema;
  let out: JsonSchema = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inlineDefinitions(value, definitions)]),
  );
  if (typeof $ref === 'string') {
    const target = definitions[$ref.replace('#/definitions/', '')];
    out = { ...(inlineDefinitions(target, definitions) as JsonSchema), ...out };
  }
  // zod wraps a reference that carries its own description in a one-element allOf.
  if (Array.isArray(allOf) && allOf.length === 1) {
    out = { ...(inlineDefinitions(allOf[0], definitions) as JsonSchema), ...out };
  } else if (allOf !== undefined) out.allOf = inlineDefinitions(allOf, definitions);
  return out;
}

/** Keywords that describe a schema rather than constrain it: they stay on a nullable's outer node. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'example']);

/**
 * The spellings that clients mapping tool schemas onto a narrower dialect (Gemini's OpenAPI subset,
 * several agent hosts) reject or misread, as the MCP Inspector's portability check (`--strict`)
 * lists them, rewritten to their portable equivalent:
 * - a `type` array (zod's nullable, `["string", "null"]`) becomes `anyOf` branches of one type each;
 * - a free-form object's `additionalProperties: {}` (accepts anything, says nothing) becomes `true`.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    const emptySchema =
      value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
    out[key] = key === 'additionalProperties' && emptySchema ? true : portable(value);
  }
  if (!Array.isArray(out.type)) return out;
  const { type: types, ...rest } = out as JsonSchema & { type: string[] };
  const outer: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) (ANNOTATIONS.has(key) ? outer : constraints)[key] = value;
  outer.anyOf = types.map((type) => (type === 'null' ? { type } : { type, ...constraints }));
  return outer;
}

/**
 * JSON Schema for a tool's contract. Draft 7, as the SDK's own McpServer emits it (its client
 * validates results with Ajv); input mode also for results, so that a record that gains a field
 * stays valid for clients that validate against an older listing.
 */
function jsonSchemaOf(schema: z.ZodObject): Tool['inputSchema'] {
  const { definitions, ...root } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return portable(
    inlineDefinitions(root, (definitions ?? {}) as Record<string, JsonSchema>),
  ) as Tool['inputSchema'];
}

function definitionOf<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
  annotations: ToolAnnotations,
): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: jsonSchemaOf(spec.input),
    outputSchema: jsonSchemaOf(spec.output),
    annotations: { title: spec.title, ...annotations, ...spec.annotations },
  };
}

/** A tool that changes nothing: not a write for the plan quota (D44). */
export function readTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ReadToolSpec<I, O>): McpTool {
  return {
    definition: definitionOf(spec, { readOnlyHint: true, openWorldHint: false }),
    input: spec.input,
    run: async (args, call) => stringifyWithRawJson(await spec.read(args as z.output<I>, call)),
    render: (result) => spec.render(result as z.output<O>),
  };
}

/**
 * A tool that changes data. It runs through `runWrite` like every REST write: one transaction with
 * the write guards (or, with `standalone`, first as one statement with the guards in it, D174), so
 * it counts against the plan quota (D44), and the optional `idempotencyKey` argument has the
 * meaning of REST's Idempotency-Key header (D78).
 */
export function writeTool<I extends z.ZodObject, O extends z.ZodObject>(spec: WriteToolSpec<I, O>): McpTool {
  return keyedTool(spec, (args, call, idempotency) =>
    runWrite(
      call.request.server.writeDeps,
      call.ctx,
      200,
      (tx) => spec.write(tx, args, call),
      idempotency,
      spec.standalone && ((db, guards) => spec.standalone!(db, guards, args, call)),
    ),
  );
}

/** D78: the optional key of every write tool; one key space per project with REST's header. */
const idempotencyKeyArgument = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe(
    'Optional: any 1-255 character key that identifies this write. A retry with the same key and ' +
      'the same arguments returns the first result without writing again while the key is kept (IDEMPOTENCY_TTL_HOURS, 24 by default); the same ' +
      'key with other arguments is refused with RESOURCE_CONFLICT.',
  );

/**
 * D78: what makes a tool call "the same request": the tool and its arguments apart from the key,
 * in a canonical form (object keys sorted), so that a client re-encoding its retry still matches.
 */
function toolCallHash(tool: string, args: unknown): string {
  return createHash('sha256').update(`MCP ${tool}\n`).update(canonicalJson(args)).digest('hex');
}

/** A write tool whose transaction comes after work that must not hold one open (a model call, D22). */
export function stagedWriteTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: StagedWriteToolSpec<I, O>,
): McpTool {
  return keyedTool(spec, (args, call, idempotency) =>
    runStagedWrite(
      call.request.server.writeDeps,
      call.ctx,
      { created: 200, existing: 200 },
      spec.staged(args, call),
      idempotency,
    ),
  );
}

/** A tool that writes, with the optional `idempotencyKey` argument (D78) read off its arguments. */
function keyedTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
  write: (args: z.output<I>, call: ToolCall, idempotency: Idempotency | undefined) => Promise<WriteOutcome>,
): McpTool {
  const input = spec.input.extend({ idempotencyKey: idempotencyKeyArgument });
  return {
    definition: definitionOf(
      { ...spec, input },
      { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    ),
    input,
    async run(args, call) {
      const { idempotencyKey, ...toolArgs } = args as z.output<I> & { idempotencyKey?: string };
      const idempotency =
        idempotencyKey === undefined
          ? undefined
          : {
              key: idempotencyKey,
              requestHash: toolCallHash(spec.name, toolArgs),
              ttlHours: call.request.server.config.IDEMPOTENCY_TTL_HOURS,
            };
      return (await write(toolArgs as z.output<I>, call, idempotency)).body;
    },
    render: (result) => spec.render(result as z.output<O>),
  };
}

/**
 * D42: a refused or failed call is a tool result with `isError: true` whose text is the REST error
 * envelope (same code, message, type and details; requestId names the HTTP request). A delay after
 * which a retry may succeed (D14) travels as `retryAfter` in seconds, since there is no header.
 */
function errorResult(error: unknown, request: FastifyRequest, tool: string): CallToolResult {
  const clientError = toClientError(error);
  logAnswered(request, error, clientError, 'MCP tool', { tool });
  const body = errorBody(clientError.code, clientError.message, request.id, clientError.details);
  const retry = clientError.retryAfterSeconds;
  const envelope = retry === undefined ? body : { error: { ...body.error, retryAfter: retry } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

/**
 * The JSON-RPC message that carries request `id` inside the HTTP body (a batch is an array).
 * Arguments are read again from that message's raw text (D28), so it must be the one message of
 * the batch that is a request with this id: guessing would store one call's content with another
 * call's fields. Both failures are protocol errors, thrown before the tool runs, so nothing is
 * stored:
 * - an id that several requests of the batch share is the client's mistake in JSON-RPC itself
 *   (ids correlate answers with requests; MCP: an id MUST NOT be reused): InvalidRequest. Not a
 *   tool result with `isError` (D42), which tells a model its arguments or the data were wrong
 *   and invites it to retry the call: here no tool was at fault, and no retry of the same batch
 *   can succeed.
 * - an id that no message carries cannot come from a client (the SDK dispatched the message from
 *   this very body): a fault of the server, InternalError.
 */
export function messagePath(body: unknown, id: string | number): BodyPath {
  if (!Array.isArray(body)) return [];
  const indexes = body.flatMap((message, index) => {
    const { id: messageId, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    // A response of the client to a server request may carry the same id: it is not a request.
    return messageId === id && typeof method === 'string' ? [index] : [];
  });
  if (indexes.length === 1) return [indexes[0]!];
  if (indexes.length > 1) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Request id ${JSON.stringify(id)} is used by ${indexes.length} messages of this batch: ` +
        'give every request of a batch an id of its own',
    );
  }
  throw new McpError(
    ErrorCode.InternalError,
    `No message of this batch carries request id ${JSON.stringify(id)}`,
  );
}

async function callTool(tool: McpTool, args: unknown, call: ToolCall): Promise<CallToolResult> {
  const given = args ?? {};
  try {
    const parsed = parseRequestPart(tool.input, given, 'body');
    if (parsed.error) throw toAppError(parsed.error);
    const json = await tool.run(parsed.value, call);
    const structured = JSON.parse(json) as Record<string, unknown>;
    // The data once, as structuredContent, and one short rendering for a reader: every copy costs
    // an agent tokens (docs/api-decisions.md, "MCP results").
    return { content: [{ type: 'text', text: tool.render(structured) }], structuredContent: structured };
  } catch (error) {
    return errorResult(error, call.request, tool.definition.name);
  }
}

/** Answers tools/list and tools/call on `server` for one HTTP request of an authenticated key. */
export function serveTools(server: Server, tools: readonly McpTool[], request: FastifyRequest): void {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const ctx: ProjectContext = { projectId: request.auth.projectId, settings: request.auth.settings };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.definition) }));

  server.setRequestHandler(CallToolRequestSchema, async (message, extra) => {
    const tool = byName.get(message.params.name);
    // An unknown tool is a protocol error (MCP "Error Handling"), not a tool result.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${message.params.name}`);
    // Outside callTool on purpose: a batch whose ids are ambiguous is a JSON-RPC error, not a tool error.
    const prefix = [...messagePath(request.body, extra.requestId), 'params', 'arguments'];
    return callTool(tool, message.params.arguments, {
      request,
      ctx,
      services: request.server.services,
      at: (...path) => [...prefix, ...path],
    });
  });
}
