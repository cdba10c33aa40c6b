import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import { type Api, V1, createDialogue, sendRaw, useProjectApi } from '../helpers/dialogues.js';

// D28: content comes back exactly as sent. Bodies are sent as text, because a JS object would
// already lose key order and big integers before the request left the test.

const file = useProjectApi();
const api: Api = (options) => file.api(options);
let dialogueId: string;

beforeAll(async () => {
  dialogueId = (await createDialogue(api)).id;
});

const MiB = 1_048_576;

const SAMPLES = {
  integerLikeKeys: '{"b":1,"10":2,"a":{"z":true,"1":null,"0":"x"},"2":[3,2,1]}',
  bigNumbers:
    '{"big":123456789012345678901234567890,"neg":-9007199254740993,"float":1.10,"exp":1E+2,"zero":-0}',
  escapes: '"caf\\u00e9 \\ud83d\\ude00 \\"quoted\\" \\/ \\n\\t\\\\ tab"',
  whitespace: '[ { "type" : "text",\n  "text" : "spaced" } ,{"type":"image","source":{"data":"AAAA"}} ]',
  unicode: '"Grüße, 世界 🌍"',
  duplicateKeys: '{"a":1,"a":2}',
  controlCharacters: '{"nul":"a\\u0000b","lone":"\\ud800 half"}',
};

async function create(content: string): Promise<{ status: number; body: string; id?: string }> {
  const response = await sendRaw(
    api,
    'POST',
    `${V1}/message`,
    `{"dialogueId":"${dialogueId}","role":"user","content":${content}}`,
  );
  return {
    status: response.statusCode,
    body: response.body,
    id: response.statusCode === 201 ? response.json().id : undefined,
  };
}

describe('content fidelity (D28)', () => {
  for (const [name, content] of Object.entries(SAMPLES)) {
    it(`returns ${name} byte for byte from every read`, async () => {
      const created = await create(content);
      expect(created.status).toBe(201);
      expect(created.body).toContain(`"content":${content},`);
      const get = await api({ method: 'GET', url: `${V1}/message/${created.id}?dialogueId=${dialogueId}` });
      expect(get.body).toContain(`"content":${content},`);
      const list = await api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogueId}&limit=200` });
      expect(list.body).toContain(`"content":${content},`);
      const dialogue = await api({ method: 'GET', url: `${V1}/dialogue/${dialogueId}` });
      expect(dialogue.body).toContain(`"content":${content},`);
    });
  }

  it('keeps content exact through batch create, dialogue create and dialogue update', async () => {
    const content = SAMPLES.integerLikeKeys;
    const batch = await sendRaw(
      api,
      'POST',
      `${V1}/messages`,
      `{"dialogueId":"${dialogueId}","messages":[{"role":"user","content":${content}},{"role":"user","content":${SAMPLES.bigNumbers}}]}`,
    );
    expect(batch.statusCode).toBe(201);
    expect(batch.body).toContain(`"content":${content},`);
    expect(batch.body).toContain(`"content":${SAMPLES.bigNumbers},`);
    const created = await sendRaw(
      api,
      'POST',
      `${V1}/dialogue`,
      `{"messages":[{"role":"user","content":${content}}],"message":{"role":"user","content":${SAMPLES.escapes}}}`,
    );
    expect(created.statusCode).toBe(201);
    expect(created.body).toContain(`"content":${content},`);
    expect(created.body).toContain(`"content":${SAMPLES.escapes},`);
    const updated = await sendRaw(
      api,
      'PUT',
      `${V1}/dialogue/${created.json().id}`,
      `{"message":{"role":"user","content":${SAMPLES.whitespace}}}`,
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.body).toContain(`"content":${SAMPLES.whitespace},`);
  });

  it('counts UTF-8 bytes of the decoded string for strings, of the JSON text for the rest', async () => {
    const escaped = await create('"\\u00e9"');
    expect(JSON.parse(escaped.body).contentLength).toBe(2);
    const emoji = await create('"🌍"');
    expect(JSON.parse(emoji.body).contentLength).toBe(4);
    const object = '{ "a" : "é" }';
    expect(JSON.parse((await create(object)).body).contentLength).toBe(Buffer.byteLength(object));
    expect(JSON.parse((await create(SAMPLES.whitespace)).body).contentLength).toBe(
      Buffer.byteLength(SAMPLES.whitespace),
    );
  });
});

describe('message size limit: 1 MiB (D28)', () => {
  it('accepts a string of exactly 1 MiB and refuses one byte more', async () => {
    expect((await create(JSON.stringify('a'.repeat(MiB)))).status).toBe(201);
    const over = await sendRaw(
      api,
      'POST',
      `${V1}/message`,
      `{"dialogueId":"${dialogueId}","role":"user","content":${JSON.stringify('a'.repeat(MiB + 1))}}`,
    );
    expectError(over, 400, 'MESSAGE_TOO_LARGE');
  });

  it('counts multi-byte characters by their UTF-8 bytes', async () => {
    expect((await create(JSON.stringify('é'.repeat(MiB / 2)))).status).toBe(201);
    const over = await sendRaw(
      api,
      'POST',
      `${V1}/message`,
      `{"dialogueId":"${dialogueId}","role":"user","content":${JSON.stringify(`${'é'.repeat(MiB / 2)}a`)}}`,
    );
    expectError(over, 400, 'MESSAGE_TOO_LARGE');
  });

  it('measures object content by its JSON text as sent', async () => {
    const frame = '{"t":""}'.length;
    const exact = `{"t":"${'b'.repeat(MiB - frame)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MiB);
    expect((await create(exact)).status).toBe(201);
    const over = `{"t":"${'b'.repeat(MiB - frame)}" }`;
    const response = await sendRaw(
      api,
      'POST',
      `${V1}/message`,
      `{"dialogueId":"${dialogueId}","role":"user","content":${over}}`,
    );
    expect(expectError(response, 400, 'MESSAGE_TOO_LARGE').details?.[0]?.field).toBe('content');
  });

  it('refuses an oversized message in a batch and stores none of the batch', async () => {
    const fresh = await createDialogue(api);
    const response = await sendRaw(
      api,
      'POST',
      `${V1}/messages`,
      `{"dialogueId":"${fresh.id}","messages":[{"role":"user","content":"ok"},{"role":"user","content":${JSON.stringify('a'.repeat(MiB + 1))}}]}`,
    );
    expect(expectError(response, 400, 'MESSAGE_TOO_LARGE').details?.[0]?.field).toBe('messages[1].content');
    const after = await api({ method: 'GET', url: `${V1}/dialogue/${fresh.id}` });
    expect(after.json().totalMessages).toBe(0);
  });
});
