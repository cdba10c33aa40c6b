import type { Parley } from '@parley/client';
import { ParleyChatMessageHistory } from '@parley/client/langchain';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  mapChatMessagesToStoredMessages,
} from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';

// `@parley/client/langchain`'s chat history (built, imported by its package name) against a real
// server: what LangChain's own message serialization produces comes back the same.

let server: ClientServer;
let client: Parley;
beforeAll(async () => {
  server = await startClientServer();
  client = await server.newClient();
});
afterAll(() => server?.close());

const serialized = (messages: BaseMessage[]) =>
  JSON.parse(JSON.stringify(mapChatMessagesToStoredMessages(messages)));

const transcript = (): BaseMessage[] => [
  new SystemMessage('You are a travel agent.'),
  new HumanMessage({
    content: [
      { type: 'text', text: 'Is this hotel in Lisbon?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ],
    id: 'human-1',
  }),
  new AIMessage({
    content: '',
    tool_calls: [{ id: 'call-7', name: 'lookup_hotel', args: { photo: 1 }, type: 'tool_call' }],
    additional_kwargs: { reasoning: 'look it up' },
  }),
  new ToolMessage({ content: '{"city":"Lisbon"}', tool_call_id: 'call-7', name: 'lookup_hotel' }),
  new AIMessage({ content: 'Yes, it is in Lisbon.', response_metadata: { model: 'test' } }),
];

describe('ParleyChatMessageHistory', () => {
  it('round-trips human, AI with tool_calls, tool, system and multimodal messages', async () => {
    const history = new ParleyChatMessageHistory({ client, dialogueId: 'lc-round-trip' });
    const [system, human, ...rest] = transcript();
    await history.addMessage(system!);
    await history.addMessage(human!);
    await history.addMessages(rest);
    const loaded = await history.getMessages();
    expect(serialized(loaded)).toEqual(serialized(transcript()));
    expect(loaded.map((m) => m.type)).toEqual(['system', 'human', 'ai', 'tool', 'ai']);
    expect((loaded[2] as AIMessage).tool_calls).toEqual([
      { id: 'call-7', name: 'lookup_hotel', args: { photo: 1 }, type: 'tool_call' },
    ]);
    expect((loaded[3] as ToolMessage).tool_call_id).toBe('call-7');
    expect(loaded[1]!.content).toEqual(transcript()[1]!.content);
    // Stored as a dialogue under the given id, with Parley roles that read naturally.
    const page = await client.messages.page({ dialogueId: 'lc-round-trip' });
    expect(page.items.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
  });

  it('starts empty, and clear empties the history so that it starts again under the same id', async () => {
    const history = new ParleyChatMessageHistory({ client, dialogueId: 'lc-clear', namespace: 'lc' });
    expect(await history.getMessages()).toEqual([]);
    await history.addMessages([new HumanMessage('hi'), new AIMessage('hello')]);
    expect(await history.getMessages()).toHaveLength(2);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    await history.addMessage(new HumanMessage('again'));
    expect((await history.getMessages()).map((m) => m.content)).toEqual(['again']);
    expect((await client.dialogues.get('lc-clear', { namespace: 'lc' })).totalMessages).toBe(1);
  });

  it('reads messages another client wrote in plain form as the messages of their roles', async () => {
    await client.dialogues.create({
      id: 'lc-foreign',
      messages: [
        { role: 'user', content: 'Question' },
        { role: 'assistant', content: 'Answer' },
      ],
    });
    const loaded = await new ParleyChatMessageHistory({ client, dialogueId: 'lc-foreign' }).getMessages();
    expect(loaded.map((m) => [m.type, m.content])).toEqual([
      ['human', 'Question'],
      ['ai', 'Answer'],
    ]);
  });
});
