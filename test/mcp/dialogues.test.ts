import { type CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { messagePath } from '../../src/mcp/tool-kit.js';
import { createProject, expectError } from '../helpers/app.js';
import { callError, callOk, connectMcp, postMcp, useMcpProject } from '../helpers/mcp.js';

// D42: the dialogue and message tools, a round trip through them, their errors, and that MCP and
// REST read what the other wrote.

interface Message {
  id: string;
  dialogueId: string;
  role: string;
  content: unknown;
  contentLength: number;
}
interface Dialogue {
  id: string;
  status: string;
  label: string | null;
  tags: string[];
  state: Record<string, unknown>;
  totalMessages: number;
  messages?: Message[];
}
interface Page<T> {
  items: T[];
  next: string | null;
}

const mcp = useMcpProject();

describe('MCP dialogue and message tools', () => {
  it('runs a conversation through create, add, list, get, update, state and end', async () => {
    const created = await callOk<Dialogue>(mcp.client, 'create_dialogue', {
      label: 'Order inquiry',
      tags: ['support'],
      state: { step: 'greeting' },
      messages: [{ role: 'system', content: 'You are a support agent.' }],
      message: { role: 'user', content: 'Where is my order #1234?' },
    });
    expect(created).toMatchObject({ status: 'active', label: 'Order inquiry', totalMessages: 2 });
    expect(created.messages!.map((m) => m.content)).toEqual([
      'You are a support agent.',
      'Where is my order #1234?',
    ]);

    const blocks = [{ type: 'tool_use', id: 'tu_1', name: 'lookup', input: { order: 1234 } }];
    const added = await callOk<{ dialogueId: string; items: Message[]; totalMessages: number }>(
      mcp.client,
      'add_messages',
      {
        dialogueId: created.id,
        messages: [
          { role: 'assistant', content: blocks, name: 'agent' },
          { role: 'assistant', content: 'It ships tomorrow.', id: 'reply-1' },
        ],
      },
    );
    expect(added.totalMessages).toBe(4);
    expect(added.items[0]!.content).toEqual(blocks);
    expect(added.items[1]!.id).toBe('reply-1');

    const page = await callOk<Page<Message>>(mcp.client, 'list_messages', {
      dialogueId: created.id,
      limit: 3,
    });
    expect(page.items.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    const rest2 = await callOk<Page<Message>>(mcp.client, 'list_messages', {
      dialogueId: created.id,
      next: page.next,
    });
    expect(rest2.items.map((m) => m.id)).toEqual(['reply-1']);
    expect(rest2.next).toBeNull();

    // D40: found by its words at once, before any embedding exists.
    const found = await callOk<{ results: { relevance: number; item: Message }[] }>(mcp.client, 'search', {
      query: 'ships tomorrow',
      dialogueId: created.id,
    });
    expect(found.results[0]?.item).toMatchObject({ id: 'reply-1', content: 'It ships tomorrow.' });
    const dialogues = await callOk<{ results: { item: Dialogue }[] }>(mcp.client, 'search', {
      query: 'order inquiry',
      object: 'dialogue',
    });
    expect(dialogues.results.map((result) => result.item.id)).toContain(created.id);

    const one = await callOk<Message>(mcp.client, 'get_message', {
      dialogueId: created.id,
      messageId: 'reply-1',
    });
    expect(one.content).toBe('It ships tomorrow.');

    const got = await callOk<Dialogue>(mcp.client, 'get_dialogue', { dialogueId: created.id });
    expect(got.totalMessages).toBe(4);
    expect(got.messages!.at(-1)!.id).toBe('reply-1');

    const listed = await callOk<Page<Dialogue>>(mcp.client, 'list_dialogues', { tag: 'support' });
    expect(listed.items.map((d) => d.id)).toContain(created.id);

    const updated = await callOk<Dialogue>(mcp.client, 'update_dialogue', {
      dialogueId: created.id,
      tags: ['support', 'orders'],
      state: { step: 'answered' },
    });
    expect(updated).toMatchObject({ tags: ['support', 'orders'], state: { step: 'answered' } });

    const ended = await callOk<Dialogue>(mcp.client, 'end_dialogue', { dialogueId: created.id });
    expect(ended.status).toBe('ended');

    // D20: the state still changes on an ended dialogue; a null removes the key.
    const state = await callOk<Dialogue>(mcp.client, 'update_state', {
      dialogueId: created.id,
      state: { step: null, outcome: 'resolved' },
    });
    expect(state.state).toEqual({ outcome: 'resolved' });

    const refused = await callError(
      mcp.client,
      'add_messages',
      { dialogueId: created.id, messages: [{ role: 'user', content: 'one more thing' }] },
      'DIALOGUE_ENDED',
    );
    expect(refused.type).toBe('conflict');
    await callError(
      mcp.client,
      'update_dialogue',
      { dialogueId: created.id, label: 'late' },
      'DIALOGUE_ENDED',
    );
  });

  it('gives the data once, as structuredContent, beside one short readable text', async () => {
    const result = (await mcp.client.callTool({
      name: 'create_dialogue',
      arguments: {
        label: 'Rendered',
        messages: [
          { role: 'user', content: 'Hello there' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me look.' },
              { type: 'tool_use', name: 'lookup' },
            ],
          },
        ],
      },
    })) as CallToolResult;
    expect(result.content).toHaveLength(1);
    const [readable] = result.content as { type: 'text'; text: string }[];
    expect(readable!.text.length).toBeLessThan(JSON.stringify(result.structuredContent).length);
    expect(readable!.text).toMatch(/^Dialogue dlg_\S+ "Rendered": active, 2 messages/);
    expect(readable!.text).toContain('[user] Hello there');
    expect(readable!.text).toContain('[assistant] Let me look. [tool_use lookup]');
    expect(result.structuredContent).toMatchObject({ label: 'Rendered', totalMessages: 2 });
  });

  it('answers errors with the REST code and message (D42)', async () => {
    const missing = await callError(
      mcp.client,
      'get_dialogue',
      { dialogueId: 'dlg_missing' },
      'DIALOGUE_NOT_FOUND',
    );
    const viaRest = expectError(
      await mcp.rest({ method: 'GET', url: '/api/v1/dialogue/dlg_missing' }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expect(missing.message).toBe(viaRest.message);
    expect(missing.type).toBe('not_found');
    expect(missing.requestId).toMatch(/^req_/);

    const { id } = await callOk<Dialogue>(mcp.client, 'create_dialogue', {});
    await callError(mcp.client, 'get_message', { dialogueId: id, messageId: 'nope' }, 'MESSAGE_NOT_FOUND');

    const tooLarge = await callError(
      mcp.client,
      'add_messages',
      { dialogueId: id, messages: [{ role: 'user', content: 'x'.repeat(1_048_577) }] },
      'MESSAGE_TOO_LARGE',
    );
    expect(tooLarge.details?.[0]?.field).toBe('messages[0].content');

    await callError(
      mcp.client,
      'add_messages',
      { dialogueId: id, messages: [{ role: 'user', content: '' }] },
      'MESSAGE_CONTENT_EMPTY',
    );
    const many = Array.from({ length: 26 }, () => ({ role: 'user', content: 'hi' }));
    await callError(mcp.client, 'create_dialogue', { messages: many }, 'TOO_MANY_MESSAGES');
    await callError(mcp.client, 'add_messages', { dialogueId: id, messages: [] }, 'EMPTY_MESSAGE_ARRAY');

    // Argument validation speaks REST's codes too (D12-D13).
    await callError(
      mcp.client,
      'add_messages',
      { messages: [{ role: 'user', content: 'x' }] },
      'MISSING_PARAMETER',
    );
    const badRole = await callError(
      mcp.client,
      'add_messages',
      { dialogueId: id, messages: [{ role: 'robot', content: 'x' }] },
      'INVALID_INPUT',
    );
    expect(badRole.details?.[0]?.field).toBe('messages[0].role');
    await callError(mcp.client, 'update_dialogue', { dialogueId: id, metadata: { a: 1 } }, 'INVALID_INPUT');

    // Nothing of the failed calls was stored (D31).
    expect((await callOk<Dialogue>(mcp.client, 'get_dialogue', { dialogueId: id })).totalMessages).toBe(0);
  });

  const addCall = (rpcId: number, dialogueId: string, messageId: string, content: string) =>
    `{"jsonrpc":"2.0","id":${rpcId},"method":"tools/call","params":{"name":"add_messages","arguments":` +
    `{"dialogueId":"${dialogueId}","messages":[{"role":"user","content":${content},"id":"${messageId}"}]}}}`;

  async function storedText(dialogueId: string, messageId: string): Promise<string> {
    const read = await mcp.rest({
      method: 'GET',
      url: `/api/v1/message/${messageId}?dialogueId=${dialogueId}`,
    });
    return read.body;
  }

  it('stores content sent over MCP byte for byte, as REST returns it (D28)', async () => {
    const { id } = await callOk<Dialogue>(mcp.client, 'create_dialogue', {});
    // Written by hand: a JavaScript mcp.client could not send these keys in this order or this integer.
    const content =
      '{"b":1,"2":"two","a":[1.50,{"z":null}],"big":123456789012345678901234567890,"s":"\\u00e9"}';
    const response = await postMcp(mcp.baseUrl, addCall(7, id, 'exact', content), mcp.project.auth);
    const rpc = (await response.json()) as { result: CallToolResult };
    expect(rpc.result.isError).toBeUndefined();
    expect(rpc.result.structuredContent).toMatchObject({ items: [{ id: 'exact' }] });

    const read = await storedText(id, 'exact');
    expect(read).toContain(`"content":${content}`);
    expect(JSON.parse(read).contentLength).toBe(Buffer.byteLength(content));
  });

  it("takes each call's content from its own message in a JSON-RPC batch", async () => {
    const { id } = await callOk<Dialogue>(mcp.client, 'create_dialogue', {});
    const first = '{"n":10000000000000000001,"k":"first"}';
    const second = '[{"type":"text","text":"second","2":1,"1":2}]';
    // The ids in reverse order of position: content must follow the id, not the position.
    const batch = `[${addCall(22, id, 'one', first)},${addCall(21, id, 'two', second)}]`;
    const response = await postMcp(mcp.baseUrl, batch, mcp.project.auth);
    const answers = (await response.json()) as { id: number; result: CallToolResult }[];
    expect(answers.map((answer) => answer.result.isError)).toEqual([undefined, undefined]);
    expect(await storedText(id, 'one')).toContain(`"content":${first}`);
    expect(await storedText(id, 'two')).toContain(`"content":${second}`);
  });

  it('refuses calls that share one id in a JSON-RPC batch, and stores nothing (no mixed content)', async () => {
    const { id } = await callOk<Dialogue>(mcp.client, 'create_dialogue', {});
    const first = '{"k":"first","n":1}';
    const second = '{"k":"second","n":2}';
    // Same id, different content: content is taken from the raw body by id (D28), so a call
    // could otherwise be stored with the other call's content.
    const batch = `[${addCall(31, id, 'first', first)},${addCall(31, id, 'second', second)}]`;
    const response = await postMcp(mcp.baseUrl, batch, mcp.project.auth);
    const answers = [await response.json()].flat() as {
      id: number;
      error?: { code: number; message: string };
    }[];
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      expect(answer.id).toBe(31);
      expect(answer.error?.code).toBe(-32600);
      expect(answer.error?.message).toContain('Request id 31 is used by 2 messages of this batch');
    }
    for (const messageId of ['first', 'second']) {
      const read = await mcp.rest({ method: 'GET', url: `/api/v1/message/${messageId}?dialogueId=${id}` });
      expect(read.statusCode, read.body).toBe(404);
    }
    expect((await callOk<Dialogue>(mcp.client, 'get_dialogue', { dialogueId: id })).totalMessages).toBe(0);
  });

  it('locates a call in a batch only by an id that exactly one request carries', () => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
    // A client's answer to a server request may reuse the id: it is not a request.
    expect(messagePath([{ jsonrpc: '2.0', id: 2, result: {} }, call(1), call(2)], 2)).toEqual([2]);
    expect(messagePath(call(1), 1)).toEqual([]);
    // The SDK dispatches messages of this very body, so a missing id is a fault of the server.
    expect(() => messagePath([call(1)], 2)).toThrow(
      expect.objectContaining({ code: ErrorCode.InternalError, message: expect.stringContaining('id 2') }),
    );
    expect(() => messagePath([call(1), call(2), call(1)], 1)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidRequest }),
    );
  });

  it('reads over REST what MCP wrote, and over MCP what REST wrote', async () => {
    const viaMcp = await callOk<Dialogue>(mcp.client, 'create_dialogue', {
      namespace: 'user-7',
      message: { role: 'user', content: [{ type: 'text', text: 'from MCP' }] },
    });
    const restRead = await mcp.rest({ method: 'GET', url: `/api/v1/dialogue/${viaMcp.id}` });
    expect(restRead.statusCode).toBe(200);
    expect(restRead.json()).toMatchObject({ namespace: 'user-7', totalMessages: 1 });
    expect(restRead.json().messages[0].content).toEqual([{ type: 'text', text: 'from MCP' }]);

    const viaRest = await mcp.rest({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: {
        namespace: 'user-8',
        messages: [{ role: 'user', content: { kind: 'form', fields: [1, 2] } }],
      },
    });
    expect(viaRest.statusCode).toBe(201);
    const { id } = viaRest.json() as { id: string };
    await callOk(mcp.client, 'add_messages', {
      dialogueId: id,
      namespace: 'user-8',
      messages: [{ role: 'assistant', content: 'answered over MCP' }],
    });
    // D34: the namespace rule holds over MCP as over REST.
    await callError(mcp.client, 'list_messages', { dialogueId: id }, 'DIALOGUE_NOT_FOUND');
    const listed = await callOk<Page<Message>>(mcp.client, 'list_messages', {
      dialogueId: id,
      namespace: 'user-8',
    });
    expect(listed.items.map((m) => m.content)).toEqual([
      { kind: 'form', fields: [1, 2] },
      'answered over MCP',
    ]);
    const restMessages = await mcp.rest({
      method: 'GET',
      url: `/api/v1/messages?dialogueId=${id}&namespace=user-8`,
    });
    expect(restMessages.json().items).toHaveLength(2);
  });

  it("never shows one project's dialogues to another project's key (D46)", async () => {
    const { id } = await callOk<Dialogue>(mcp.client, 'create_dialogue', { label: 'private' });
    const other = await createProject(mcp.context.app);
    const otherClient = await connectMcp(mcp.baseUrl, other.apiKey);
    await callError(otherClient, 'get_dialogue', { dialogueId: id }, 'DIALOGUE_NOT_FOUND');
    await callError(otherClient, 'end_dialogue', { dialogueId: id }, 'DIALOGUE_NOT_FOUND');
    const listed = await callOk<Page<Dialogue>>(otherClient, 'list_dialogues', {});
    expect(listed.items).toEqual([]);
    await otherClient.close();
  });

  it('refuses changes in an immutable project as REST does (D25)', async () => {
    const immutable = await createProject(mcp.context.app, { immutableDialogues: true });
    const immutableClient = await connectMcp(mcp.baseUrl, immutable.apiKey);
    const { id } = await callOk<Dialogue>(immutableClient, 'create_dialogue', {
      message: { role: 'user', content: 'written once' },
    });
    await callError(immutableClient, 'update_dialogue', { dialogueId: id, label: 'x' }, 'DIALOGUE_IMMUTABLE');
    await callError(
      immutableClient,
      'add_messages',
      { dialogueId: id, messages: [{ role: 'user', content: 'more' }] },
      'DIALOGUE_IMMUTABLE',
    );
    expect((await callOk<Dialogue>(immutableClient, 'end_dialogue', { dialogueId: id })).status).toBe(
      'ended',
    );
    await immutableClient.close();
  });

  it('forks a dialogue with fork_dialogue (D160), and names a message of another dialogue as not found', async () => {
    const created = await callOk<Dialogue>(mcp.client, 'create_dialogue', {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'second' },
        { role: 'user', content: 'third' },
      ],
    });
    const upTo = created.messages![1]!;
    const forked = await callOk<Dialogue & { forkedFrom: unknown }>(mcp.client, 'fork_dialogue', {
      dialogueId: created.id,
      upToMessageId: upTo.id,
      label: 'try again',
    });
    expect(forked).toMatchObject({
      totalMessages: 2,
      label: 'try again',
      forkedFrom: { dialogueId: created.id, messageId: upTo.id },
    });
    const copies = await callOk<Page<Message>>(mcp.client, 'list_messages', {
      dialogueId: forked.id,
      order: 'asc',
    });
    expect(copies.items.map((m) => m.content)).toEqual(['first', 'second']);
    const error = await callError(
      mcp.client,
      'fork_dialogue',
      { dialogueId: created.id, upToMessageId: 'msg_elsewhere' },
      'MESSAGE_NOT_FOUND',
    );
    expect(error.details?.[0]?.field).toBe('upToMessageId');
    await callError(mcp.client, 'fork_dialogue', { dialogueId: 'dlg_missing' }, 'DIALOGUE_NOT_FOUND');
  });

  it('erases a namespace with erase_namespace (D162): the erasure record, and the namespace reads as empty', async () => {
    await callOk(mcp.client, 'create_dialogue', {
      namespace: 'mcp-gone',
      messages: [{ role: 'user', content: 'forget me' }],
    });
    const erasure = await callOk<{ id: string; namespace: string; status: string }>(
      mcp.client,
      'erase_namespace',
      { namespace: 'mcp-gone' },
    );
    // The server's own worker may have finished it already.
    expect(erasure).toMatchObject({
      namespace: 'mcp-gone',
      status: expect.stringMatching(/^(pending|completed)$/),
    });
    const listed = await callOk<Page<Dialogue>>(mcp.client, 'list_dialogues', { namespace: 'mcp-gone' });
    expect(listed.items).toEqual([]);
    await callError(mcp.client, 'erase_namespace', { namespace: '' }, 'INVALID_INPUT');
  });
});
