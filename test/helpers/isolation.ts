import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { type TestProject, asProject } from './app.js';

// D46: nothing of one project is visible, countable or changeable through another project's key.
// Each case is run by a stranger twice: with the owner's real ids and with ids that exist nowhere.
// Both answers must be the same (status, code, and message once the ids are swapped), so that a
// foreign id cannot be told apart from a missing one.

export type Ids = Record<string, string>;

export interface IsolationCase {
  name: string;
  request(ids: Ids): InjectOptions;
}

function swapIds(text: string, from: Ids, to: Ids): string {
  let out = text;
  for (const key of Object.keys(from)) out = out.replaceAll(from[key]!, to[key]!);
  return out;
}

/** Strips what differs between any two responses (request id, timestamp). */
function comparable(body: string): unknown {
  const parsed = JSON.parse(body) as { error?: Record<string, unknown> };
  if (parsed.error) {
    const { requestId: _requestId, timestamp: _timestamp, ...rest } = parsed.error;
    return { error: rest };
  }
  return parsed;
}

export async function expectForeignLikeMissing(
  app: FastifyInstance,
  stranger: TestProject,
  cases: IsolationCase[],
  foreignIds: Ids,
  missingIds: Ids,
): Promise<void> {
  const as = asProject(app, stranger);
  for (const { name, request } of cases) {
    const foreign = await as(request(foreignIds));
    const missing = await as(request(missingIds));
    expect(foreign.statusCode, `${name}: ${foreign.body}`).toBe(missing.statusCode);
    expect(comparable(swapIds(foreign.body, foreignIds, missingIds)), name).toEqual(comparable(missing.body));
  }
}

const V1 = '/api/v1';

/**
 * Every dialogue and message route, keyed by `dialogueId`, `messageId` and `namespace` (the
 * owner's namespace: the stranger even knows it). Write cases carry valid bodies, so that only
 * the ids decide the answer.
 */
export function dialogueAndMessageCases(): IsolationCase[] {
  const message = { role: 'user', content: 'intruder' };
  const cases: IsolationCase[] = [
    { name: 'get dialogue', request: (ids) => ({ method: 'GET', url: `${V1}/dialogue/${ids.dialogueId}` }) },
    {
      name: 'update dialogue',
      request: (ids) => ({
        method: 'PUT',
        url: `${V1}/dialogue/${ids.dialogueId}`,
        payload: { tags: ['x'], message },
      }),
    },
    {
      name: 'delete dialogue',
      request: (ids) => ({ method: 'DELETE', url: `${V1}/dialogue/${ids.dialogueId}` }),
    },
    {
      name: 'update state',
      request: (ids) => ({ method: 'PUT', url: `${V1}/dialogue/${ids.dialogueId}/state`, payload: { x: 1 } }),
    },
    {
      name: 'create thread',
      request: (ids) => ({ method: 'POST', url: `${V1}/dialogue`, payload: { threadOf: ids.dialogueId } }),
    },
    {
      name: 'list threads',
      request: (ids) => ({ method: 'GET', url: `${V1}/dialogue?query=threads&threadOf=${ids.dialogueId}` }),
    },
    {
      name: 'list by namespace',
      request: (ids) => ({ method: 'GET', url: `${V1}/dialogue?namespace=${ids.namespace}` }),
    },
    {
      name: 'create message',
      request: (ids) => ({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: ids.dialogueId, namespace: ids.namespace, ...message },
      }),
    },
    {
      name: 'create messages',
      request: (ids) => ({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: ids.dialogueId, namespace: ids.namespace, messages: [message] },
      }),
    },
    {
      name: 'list messages',
      request: (ids) => ({
        method: 'GET',
        url: `${V1}/messages?dialogueId=${ids.dialogueId}&namespace=${ids.namespace}`,
      }),
    },
    {
      name: 'list dialogue messages',
      request: (ids) => ({
        method: 'GET',
        url: `${V1}/dialogue/${ids.dialogueId}/messages?namespace=${ids.namespace}`,
      }),
    },
    {
      name: 'get message',
      request: (ids) => ({
        method: 'GET',
        url: `${V1}/message/${ids.messageId}?dialogueId=${ids.dialogueId}&namespace=${ids.namespace}`,
      }),
    },
    {
      name: 'update message tags',
      request: (ids) => ({
        method: 'PUT',
        url: `${V1}/message/${ids.messageId}?dialogueId=${ids.dialogueId}&namespace=${ids.namespace}`,
        payload: { tags: ['x'] },
      }),
    },
    {
      name: 'delete message',
      request: (ids) => ({
        method: 'DELETE',
        url: `${V1}/message/${ids.messageId}?dialogueId=${ids.dialogueId}&namespace=${ids.namespace}`,
      }),
    },
    {
      name: 'delete dialogue message',
      request: (ids) => ({
        method: 'DELETE',
        url: `${V1}/dialogue/${ids.dialogueId}/messages/${ids.messageId}?namespace=${ids.namespace}`,
      }),
    },
  ];
  for (const method of ['PUT', 'POST'] as const) {
    for (const action of ['end', 'compact', 'continue']) {
      cases.push({
        name: `${method} ${action}`,
        request: (ids) => ({ method, url: `${V1}/dialogue/${ids.dialogueId}/${action}` }),
      });
    }
  }
  return cases;
}

/**
 * The memory routes by id, keyed by `memoryId` and `namespace` (D38: with the namespace given, and
 * without it), and the list filtered by the owner's namespace.
 */
export function memoryCases(): IsolationCase[] {
  const cases: IsolationCase[] = [
    {
      name: 'list memories by namespace',
      request: (ids) => ({ method: 'GET', url: `${V1}/memory?namespace=${ids.namespace}` }),
    },
  ];
  for (const scoped of [false, true]) {
    const query = (ids: Ids) => (scoped ? `?namespace=${ids.namespace}` : '');
    const suffix = scoped ? ' in its namespace' : '';
    cases.push(
      {
        name: `get memory${suffix}`,
        request: (ids) => ({ method: 'GET', url: `${V1}/memory/${ids.memoryId}${query(ids)}` }),
      },
      {
        name: `update memory${suffix}`,
        request: (ids) => ({
          method: 'PUT',
          url: `${V1}/memory/${ids.memoryId}${query(ids)}`,
          payload: { value: 'overwritten', label: 'x', tags: ['x'] },
        }),
      },
      {
        name: `delete memory${suffix}`,
        request: (ids) => ({ method: 'DELETE', url: `${V1}/memory/${ids.memoryId}${query(ids)}` }),
      },
    );
  }
  return cases;
}

/**
 * The summary routes (D56), keyed by `dialogueId`, `summaryId` and `namespace`: with the
 * namespace given, and without it. Creating one with the owner's summary id as its own id
 * meets the foreign dialogue first, like a missing one.
 */
export function summaryCases(): IsolationCase[] {
  const cases: IsolationCase[] = [];
  for (const scoped of [false, true]) {
    const namespace = (ids: Ids) => (scoped ? { namespace: ids.namespace } : {});
    const query = (ids: Ids) => (scoped ? `&namespace=${ids.namespace}` : '');
    const suffix = scoped ? ' in its namespace' : '';
    cases.push(
      {
        name: `summarize dialogue${suffix}`,
        request: (ids) => ({
          method: 'POST',
          url: `${V1}/summary`,
          payload: { dialogueId: ids.dialogueId, id: ids.summaryId, ...namespace(ids) },
        }),
      },
      {
        name: `get summary${suffix}`,
        request: (ids) => ({
          method: 'GET',
          url: `${V1}/summary/${ids.summaryId}${scoped ? `?namespace=${ids.namespace}` : ''}`,
        }),
      },
      {
        name: `list summaries${suffix}`,
        request: (ids) => ({ method: 'GET', url: `${V1}/summary?dialogueId=${ids.dialogueId}${query(ids)}` }),
      },
    );
  }
  return cases;
}

/**
 * Search (D39), keyed by `dialogueId`, `namespace` and `word`, a word that only the owner's items
 * carry: a foreign dialogue filter answers like an unknown dialogue, and the owner's word finds
 * exactly what a word stored nowhere finds (nothing), for every kind, in the owner's namespace
 * and in none, with the owner's tag or without.
 */
export function searchCases(): IsolationCase[] {
  const search =
    (body: (ids: Ids) => Record<string, unknown>) =>
    (ids: Ids): InjectOptions => ({
      method: 'POST',
      url: `${V1}/search`,
      payload: body(ids),
    });
  const cases: IsolationCase[] = [
    {
      name: 'search in a dialogue',
      request: search((ids) => ({ query: ids.word, dialogueId: ids.dialogueId, namespace: ids.namespace })),
    },
    {
      name: 'search in a dialogue without its namespace',
      request: search((ids) => ({ query: ids.word, dialogueId: ids.dialogueId })),
    },
    {
      name: 'search in a dialogue for any word',
      request: search((ids) => ({ query: 'intruder', dialogueId: ids.dialogueId, namespace: ids.namespace })),
    },
  ];
  for (const object of ['message', 'dialogue', 'memory']) {
    for (const scoped of [false, true]) {
      for (const tagged of [false, true]) {
        cases.push({
          name: `search ${object}s${scoped ? ' in the namespace' : ''}${tagged ? ' by tag' : ''}`,
          request: search((ids) => ({
            query: ids.word,
            object,
            ...(scoped ? { namespace: ids.namespace } : {}),
            ...(tagged ? { tag: ids.tag } : {}),
          })),
        });
      }
    }
  }
  return cases;
}
