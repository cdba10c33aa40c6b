import type { Parley } from '@parley/client';
import { parleyChatStore } from '@parley/client/ai-sdk';
import { type UIMessage, validateUIMessages } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';

// `@parley/client/ai-sdk` (built, imported by its package name) against a real server, checked
// with the AI SDK's own validateUIMessages.

let server: ClientServer;
let client: Parley;
beforeAll(async () => {
  server = await startClientServer();
  client = await server.newClient();
});
afterAll(() => server?.close());

type Meta = { model: string; tokens: number };

const conversation: UIMessage<Meta>[] = [
  { id: 'sys-1', role: 'system', parts: [{ type: 'text', text: 'You answer about the weather.' }] },
  {
    id: 'u-1',
    role: 'user',
    parts: [
      { type: 'text', text: 'What is the weather in Oslo? Here is a photo.' },
      {
        type: 'file',
        mediaType: 'image/png',
        filename: 'sky.png',
        url: 'data:image/png;base64,iVBORw0KGgo=',
      },
    ],
  },
  {
    id: 'a-1',
    role: 'assistant',
    metadata: { model: 'test-model', tokens: 42 },
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'The user wants the weather.', state: 'done' },
      {
        type: 'tool-weather',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { city: 'Oslo' },
        output: { celsius: -3, sky: 'snow' },
      },
      { type: 'text', text: 'It is -3 °C and snowing in Oslo.', state: 'done' },
    ],
  },
];

describe('parleyChatStore', () => {
  it('round-trips UIMessages exactly (tool, file and reasoning parts, metadata), valid for the AI SDK', async () => {
    const store = parleyChatStore<UIMessage<Meta>>({ client });
    await store.saveChat({ chatId: 'chat-round-trip', messages: conversation });
    const loaded = await store.loadChat('chat-round-trip');
    expect(loaded).toStrictEqual(conversation);
    await expect(validateUIMessages({ messages: loaded })).resolves.toStrictEqual(conversation);
    // The chat is a dialogue under the chat id; each message keeps its UIMessage id.
    const dialogue = await client.dialogues.get('chat-round-trip');
    expect(dialogue.totalMessages).toBe(3);
    expect(dialogue.messages.map((m) => m.id)).toEqual(['sys-1', 'u-1', 'a-1']);
  });

  it('stores nothing twice when the same list is saved again, and appends what is new', async () => {
    const store = parleyChatStore({ client });
    await store.saveChat({ chatId: 'chat-twice', messages: conversation });
    await store.saveChat({ chatId: 'chat-twice', messages: conversation });
    expect((await client.dialogues.get('chat-twice')).totalMessages).toBe(3);
    const next: UIMessage = { id: 'u-2', role: 'user', parts: [{ type: 'text', text: 'And tomorrow?' }] };
    await store.saveChat({ chatId: 'chat-twice', messages: [...conversation, next] });
    const loaded = await store.loadChat('chat-twice');
    expect(loaded.map((m) => m.id)).toEqual(['sys-1', 'u-1', 'a-1', 'u-2']);
    expect((await client.dialogues.get('chat-twice')).totalMessages).toBe(4);
  });

  it('replaces a message whose parts changed under the same id, in its place', async () => {
    const store = parleyChatStore({ client });
    const pending: UIMessage = {
      id: 'a-1',
      role: 'assistant',
      parts: [
        { type: 'tool-weather', toolCallId: 'call-1', state: 'input-available', input: { city: 'Oslo' } },
      ],
    };
    const question = conversation[1]!;
    await store.saveChat({ chatId: 'chat-update', messages: [question, pending] });
    const answered = { ...conversation[2]!, metadata: undefined };
    delete answered.metadata;
    const after: UIMessage = { id: 'u-2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] };
    await store.saveChat({ chatId: 'chat-update', messages: [question, answered, after] });
    expect(await store.loadChat('chat-update')).toStrictEqual([question, answered, after]);
    expect((await client.dialogues.get('chat-update')).totalMessages).toBe(3);
  });

  it('loads an unknown chat as empty, and keeps chats of different namespaces apart', async () => {
    const store = parleyChatStore({ client });
    expect(await store.loadChat('chat-never-saved')).toEqual([]);
    const teamA = parleyChatStore({ client, namespace: 'team-a' });
    await teamA.saveChat({ chatId: 'chat-ns', messages: [conversation[1]!] });
    expect(await teamA.loadChat('chat-ns')).toHaveLength(1);
    // The namespace rule: the dialogue is not found without its namespace, nor written to.
    expect(await store.loadChat('chat-ns')).toEqual([]);
    await expect(store.saveChat({ chatId: 'chat-ns', messages: [conversation[0]!] })).rejects.toMatchObject({
      code: 'DIALOGUE_NOT_FOUND',
    });
    expect(await teamA.loadChat('chat-ns')).toHaveLength(1);
  });

  it('reads a plain-text message written by another client as a text part', async () => {
    await client.dialogues.create({
      id: 'chat-foreign',
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    const [message] = await parleyChatStore({ client }).loadChat('chat-foreign');
    expect(message).toMatchObject({ role: 'user', parts: [{ type: 'text', text: 'Hello there' }] });
    await expect(validateUIMessages({ messages: [message!] })).resolves.toHaveLength(1);
  });
});
