import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import { type Api, V1, sendRaw, useProjectApi, walk } from '../helpers/dialogues.js';

// D57: a memory's value is any JSON value, stored and returned exactly as sent; `description`;
// client-given ids.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const create = (text: string) => sendRaw(api, 'POST', `${V1}/memory`, text);
const memoryCount = async () => (await walk(api, `${V1}/memory?limit=100`)).length;

async function search(query: string): Promise<string[]> {
  const response = await api({ method: 'POST', url: `${V1}/search`, payload: { query, object: 'memory' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().results.map((result: { item: { id: string } }) => result.item.id);
}

describe('memory values of any JSON type (D57)', () => {
  const VALUES = {
    string: '"caf\\u00e9 \\"quoted\\""',
    integer: '12345678901234567890',
    decimal: '1.50',
    boolean: 'false',
    object: '{"b":1,"a":{"z":true,"1":null},"big":123456789012345678901234567890}',
    array: '[ "spaced" , 2, {"k":"v"} ]',
  };

  for (const [name, value] of Object.entries(VALUES)) {
    it(`stores a ${name} and returns it byte for byte from create, get and list`, async () => {
      const created = await create(`{"value":${value},"namespace":"values"}`);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).toContain(`"value":${value},`);
      const id = created.json().id;
      const read = await api({ method: 'GET', url: `${V1}/memory/${id}` });
      expect(read.body).toContain(`"value":${value},`);
      const list = await api({ method: 'GET', url: `${V1}/memory?namespace=values&limit=100` });
      expect(list.body).toContain(`"value":${value},`);
    });
  }

  it('returns an updated value exactly too', async () => {
    const id = (await create('{"value":"first"}')).json().id;
    const updated = await sendRaw(api, 'PUT', `${V1}/memory/${id}`, '{"value":{"z":1,"a":[true]}}');
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.body).toContain('"value":{"z":1,"a":[true]},');
  });

  it('refuses null and empty values with 400 INVALID_INPUT on value, storing nothing', async () => {
    const before = await memoryCount();
    for (const value of ['null', '""', '[]', '{}', ' [ ] ']) {
      const error = expectError(await create(`{"value":${value}}`), 400, 'INVALID_INPUT');
      expect(error.details?.[0]?.field, value).toBe('value');
    }
    const id = (await create('{"value":"kept"}')).json().id;
    expectError(await sendRaw(api, 'PUT', `${V1}/memory/${id}`, '{"value":{}}'), 400, 'INVALID_INPUT');
    expect((await api({ method: 'GET', url: `${V1}/memory/${id}` })).json().value).toBe('kept');
    expect(await memoryCount()).toBe(before + 1);
  });

  it('bounds a string by its UTF-8 bytes and any other value by its JSON text, at 65,536 bytes', async () => {
    const accepted = [
      JSON.stringify('x'.repeat(65_536)),
      JSON.stringify('é'.repeat(32_768)),
      // 65,536 bytes as a string, though its JSON text (escaped quotes) is twice as long.
      JSON.stringify('"'.repeat(65_536)),
      `[${'"'.padEnd(65_533, 'x')}"]`,
    ];
    for (const value of accepted) expect((await create(`{"value":${value}}`)).statusCode).toBe(201);
    const refused = [
      JSON.stringify('x'.repeat(65_537)),
      JSON.stringify('é'.repeat(32_769)),
      `[${'"'.padEnd(65_534, 'x')}"]`,
      // Whitespace as sent counts: the JSON text is what is stored.
      `[ ${'"'.padEnd(65_533, 'x')}"]`,
    ];
    for (const value of refused) {
      const error = expectError(await create(`{"value":${value}}`), 400, 'INVALID_INPUT');
      expect(error.details?.[0]?.field).toBe('value');
    }
  });

  it('finds memories by the words of their value, a number included, and of their description', async () => {
    const objectValue = (
      await create('{"value":{"city":"Trondheim","floors":[{"name":"observatory"}]}}')
    ).json().id;
    const numberValue = (await create('{"value":4242424242,"label":"locker"}')).json().id;
    const described = (
      await create('{"value":"blue","description":"favourite colour of the lighthouse keeper"}')
    ).json().id;
    expect(await search('Trondheim observatory')).toContain(objectValue);
    expect(await search('4242424242')).toContain(numberValue);
    expect(await search('lighthouse keeper')).toContain(described);
  });
});

describe('memory description (D57)', () => {
  it('is part of the record: null when unset, set, changed and cleared by PUT', async () => {
    const plain = await create('{"value":"v"}');
    expect(plain.json().description).toBeNull();
    const described = await create('{"value":"v","description":"why it matters"}');
    expect(described.json().description).toBe('why it matters');
    const id = described.json().id;
    const changed = await api({
      method: 'PUT',
      url: `${V1}/memory/${id}`,
      payload: { description: 'penguin rookery' },
    });
    expect(changed.json()).toMatchObject({ description: 'penguin rookery', value: 'v' });
    // The searchable text follows the change.
    expect(await search('penguin rookery')).toContain(id);
    expect(await search('why it matters')).not.toContain(id);
    const cleared = await api({ method: 'PUT', url: `${V1}/memory/${id}`, payload: { description: null } });
    expect(cleared.json().description).toBeNull();
  });

  it('is at most 1,024 characters', async () => {
    expect((await create(JSON.stringify({ value: 'v', description: 'd'.repeat(1024) }))).statusCode).toBe(
      201,
    );
    const error = expectError(
      await create(JSON.stringify({ value: 'v', description: 'd'.repeat(1025) })),
      400,
      'INVALID_INPUT',
    );
    expect(error.details?.[0]?.field).toBe('description');
  });
});

describe('client-given memory ids (D57)', () => {
  it('keeps the given id, answers a taken one with 409 DUPLICATE_ID and changes nothing', async () => {
    const id = `pref.tea:${Math.random().toString(36).slice(2)}`;
    const created = await create(JSON.stringify({ id, value: 'green tea' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().id).toBe(id);
    const before = await memoryCount();
    const error = expectError(await create(JSON.stringify({ id, value: 'coffee' })), 409, 'DUPLICATE_ID');
    expect(error.type).toBe('conflict');
    expect(error.details).toEqual([expect.objectContaining({ field: 'id', code: 'DUPLICATE_ID' })]);
    expect(await memoryCount()).toBe(before);
    expect((await api({ method: 'GET', url: `${V1}/memory/${id}` })).json().value).toBe('green tea');
  });

  it('refuses ids outside the D27 alphabet', async () => {
    for (const id of ['has space', 'x'.repeat(129), '']) {
      const error = expectError(await create(JSON.stringify({ id, value: 'v' })), 400, 'INVALID_INPUT');
      expect(error.details?.[0]?.field).toBe('id');
    }
  });
});
