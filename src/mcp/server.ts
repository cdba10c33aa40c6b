import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { FastifyRequest } from 'fastify';
import { packageVersion } from '../lib/package-info.js';
import { serveResources } from './resources.js';
import { serveTools } from './tool-kit.js';
import { parleyTools } from './tools/index.js';

/** Read by MCP clients and shown to the model: how the tools fit together. */
const INSTRUCTIONS = [
  'Parley stores the conversations ("dialogues") of an AI application, their messages, free-form',
  'dialogue state, and long-term memories, all within the project of the API key.',
  'Start a conversation record with create_dialogue, append turns with add_messages, read them back',
  'with get_dialogue (the 10 most recent messages) or list_messages (all, paginated), and find',
  'earlier messages, dialogues or memories by meaning and by words with search. Keep facts that',
  'outlive one conversation with create_memory. A dialogue created with a namespace needs the same',
  'namespace on every message operation. A failed call returns isError with a JSON error object',
  '{code, message} using the same codes as the REST API.',
].join(' ');

/** A server for one HTTP request of an authenticated key (stateless, D42). */
export function createMcpServer(request: FastifyRequest): Server {
  const server = new Server(
    { name: 'parley', title: 'Parley', version: packageVersion },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  serveTools(server, parleyTools, request);
  serveResources(server, request);
  return server;
}
