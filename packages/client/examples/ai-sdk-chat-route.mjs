import { Parley } from '@parley/client';
import { parleyChatStore } from '@parley/client/ai-sdk';
import { convertToModelMessages, createIdGenerator, streamText, validateUIMessages } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';

const store = parleyChatStore({
  client: new Parley({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY }),
});

// Any AI SDK model does; a mock one here, so that the example runs without a provider's key.
const model = new MockLanguageModelV3({
  doStream: async () => ({
    stream: simulateReadableStream({
      chunks: [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hello! How can I help?' },
        { type: 'text-end', id: 't1' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 6, text: 6, reasoning: 0 },
          },
        },
      ],
    }),
  }),
});

// The chat route (app/api/chat/route.js in Next.js, or any fetch handler). The page sends only
// its new message (useChat with prepareSendMessagesRequest); the history comes from Parley, and
// the whole chat is saved when the answer is complete.
export async function POST(request, saved = []) {
  const { id, message } = await request.json();
  const messages = await validateUIMessages({ messages: [...(await store.loadChat(id)), message] });
  const result = streamText({ model, messages: await convertToModelMessages(messages) });
  return result.toUIMessageStreamResponse({
    originalMessages: messages,
    // The answer's id, made here: it is the id of its message in Parley.
    generateMessageId: createIdGenerator({ prefix: 'msg', size: 16 }),
    onFinish: ({ messages: all }) => {
      saved.push(store.saveChat({ chatId: id, messages: all }));
    },
  });
}

// Two turns of a chat, as a page would send them.
const chatId = `chat-${Date.now()}`;
for (const [n, text] of ['Hi!', 'Are you there?'].entries()) {
  const saved = [];
  const body = JSON.stringify({
    id: chatId,
    message: { id: `u${n}`, role: 'user', parts: [{ type: 'text', text }] },
  });
  const response = await POST(new Request('http://localhost/api/chat', { method: 'POST', body }), saved);
  await response.text();
  await Promise.all(saved);
}
const chat = await store.loadChat(chatId);
console.log(chat.map((m) => `${m.role}: ${m.parts.find((p) => p.type === 'text')?.text}`));
if (chat.length !== 4) throw new Error(`expected 4 messages, got ${chat.length}`);
