import type { Parley } from '@parley/client';
import { ParleySession } from '@parley/client/openai-agents';
import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Usage,
  run,
  setTracingDisabled,
} from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';

// `@parley/client/openai-agents` (built, imported by its package name) against a real server: the
// Agents SDK's runner keeps its history in a ParleySession, with a model that answers from what it
// is sent (no network).

let server: ClientServer;
let client: Parley;
beforeAll(async () => {
  setTracingDisabled(true);
  server = await startClientServer();
  client = await server.newClient();
});
afterAll(() => server?.close());

/** A model that answers with the number of user messages it was sent and the first one's text. */
class CountingModel implements Model {
  readonly inputs: AgentInputItem[][] = [];
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input =
      typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    this.inputs.push(input as AgentInputItem[]);
    const users = input.filter((item) => 'role' in item && item.role === 'user') as { content: unknown }[];
    const first = JSON.stringify(users[0]?.content);
    return {
      usage: new Usage(),
      responseId: `resp-${this.inputs.length}`,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: `${users.length} user messages; first: ${first}` }],
        },
      ],
    };
  }
  // biome-ignore lint/correctness/useYield: the runner streams only when asked; these tests do not.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

const items: AgentInputItem[] = [
  { role: 'user', content: 'What is 2 + 2?' },
  { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'Add them.' }] },
  { type: 'function_call', callId: 'call_1', name: 'add', arguments: '{"a":2,"b":2}', status: 'completed' },
  {
    type: 'function_call_result',
    callId: 'call_1',
    name: 'add',
    status: 'completed',
    output: { type: 'text', text: '4' },
  },
  {
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: '2 + 2 = 4' }],
  },
  { role: 'system', content: 'Be brief.' },
];

describe('ParleySession', () => {
  it('lets a run use it across two turns: the second turn sees the first', async () => {
    const model = new CountingModel();
    const agent = new Agent({ name: 'Counter', instructions: 'Count.', model });
    const session = new ParleySession({ client, sessionId: 'agents-two-turns' });
    const first = await run(agent, 'My name is Ada.', { session });
    expect(first.finalOutput).toBe('1 user messages; first: "My name is Ada."');
    const second = await run(agent, 'What is my name?', { session });
    expect(second.finalOutput).toBe('2 user messages; first: "My name is Ada."');
    expect(model.inputs[1]!.length).toBeGreaterThan(model.inputs[0]!.length);
    // Both turns, questions and answers, are the dialogue named by the session id.
    expect((await client.dialogues.get('agents-two-turns')).totalMessages).toBe(4);
  });

  it('stores every item kind as given and returns the most recent ones in order', async () => {
    const session = new ParleySession({ client });
    const id = await session.getSessionId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await session.getItems()).toEqual([]);
    await session.addItems(items.slice(0, 2));
    await session.addItems(items.slice(2));
    expect(await session.getItems()).toEqual(items);
    expect(await session.getItems(2)).toEqual(items.slice(-2));
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.popItem()).toEqual(items.at(-1));
    expect(await session.getItems()).toEqual(items.slice(0, -1));
    const roles = (await client.messages.page({ dialogueId: id })).items.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant']);
  });

  it('clears the session, pops nothing from an empty one, and starts again under the same id', async () => {
    const session = new ParleySession({ client, sessionId: 'agents-clear' });
    expect(await session.popItem()).toBeUndefined();
    await session.addItems(items.slice(0, 1));
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    await session.addItems(items.slice(4, 5));
    expect(await session.getItems()).toEqual(items.slice(4, 5));
  });
});
