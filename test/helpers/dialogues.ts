import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { type TestContext, asProject, createProject, createTestContext } from './app.js';

// Small drivers of the dialogue and message routes, for tests.

/** `asProject(app, project)`: inject as one project. */
export type Api = (options: InjectOptions) => Promise<LightMyRequestResponse>;

export const V1 = '/api/v1';

export interface ProjectApi {
  ctx: TestContext;
  api: Api;
}

/** A fresh app and one project for a whole test file; its hooks build and close them. */
export function useProjectApi(env: Record<string, string> = {}): ProjectApi {
  const state = {} as ProjectApi;
  beforeAll(async () => {
    state.ctx = await createTestContext(env);
    state.api = asProject(state.ctx.app, await createProject(state.ctx.app));
  });
  afterAll(() => state.ctx.close());
  return state;
}

/** Sends `text` as the body byte for byte (a JS object would lose key order and big integers). */
export function sendRaw(api: Api, method: 'POST' | 'PUT', url: string, text: string, headers = {}) {
  return api({ method, url, payload: text, headers: { 'content-type': 'application/json', ...headers } });
}

export interface DialogueBody {
  id: string;
  namespace: string | null;
  threadOf: string | null;
  status: string;
  totalMessages: number;
  threadCount: number;
  messages: MessageBody[];
  [key: string]: unknown;
}

export interface MessageBody {
  id: string;
  dialogueId: string;
  content: unknown;
  contentLength: number;
  [key: string]: unknown;
}

export async function createDialogue(api: Api, body: Record<string, unknown> = {}): Promise<DialogueBody> {
  const response = await api({ method: 'POST', url: `${V1}/dialogue`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as DialogueBody;
}

export async function addMessage(
  api: Api,
  dialogueId: string,
  message: Record<string, unknown> = { role: 'user', content: 'hello' },
): Promise<MessageBody> {
  const response = await api({ method: 'POST', url: `${V1}/message`, payload: { dialogueId, ...message } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as MessageBody;
}

export async function getDialogue(api: Api, id: string): Promise<DialogueBody> {
  const response = await api({ method: 'GET', url: `${V1}/dialogue/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DialogueBody;
}

/** Follows `next` to the end and returns every item. */
export async function walk<T>(api: Api, firstUrl: string): Promise<T[]> {
  const items: T[] = [];
  let url: string | null = firstUrl;
  while (url) {
    const response = await api({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { items: T[]; next: string | null };
    items.push(...page.items);
    const separator = firstUrl.includes('?') ? '&' : '?';
    url = page.next ? `${firstUrl}${separator}next=${encodeURIComponent(page.next)}` : null;
  }
  return items;
}
