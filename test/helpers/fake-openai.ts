import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from '../../src/lib/tokens.js';

// A local OpenAI-compatible chat-completions server for tests: it records every request, checks
// it the way the real API does (path, key, model, messages) and answers in the API's format. Its
// "model" writes a short deterministic summary: the summary so far plus one line per call.

interface ChatRequest {
  headers: Record<string, string | string[] | undefined>;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens?: number;
    max_completion_tokens?: number;
    [key: string]: unknown;
  };
}

/** What the server does with the next request: answer normally, fail, or never answer. */
type FakeBehaviour =
  /** `before` runs before the answer is sent: a test can change the world while the model "thinks". */
  | { kind: 'summarize'; before?: () => Promise<unknown> }
  | { kind: 'fail'; status: number; message?: string }
  | { kind: 'hang' }
  | { kind: 'reply'; content: string };

export interface FakeOpenAi {
  /** Pass as OPENAI_BASE_URL. */
  baseURL: string;
  apiKey: string;
  requests: ChatRequest[];
  /** The summaries the fake model answered, in order. */
  answers: string[];
  /** Behaviours for the next requests, in order; `summarize` when none is left. */
  plan: FakeBehaviour[];
  /**
   * Request fields the "model" refuses with the real API's 400, as OpenAI's newer models refuse
   * `max_tokens` (and any `temperature` but 1). `said: 'message'` names the field only in the
   * message, as other OpenAI-compatible servers do (`param: null`).
   */
  refuse: { field: 'max_tokens' | 'max_completion_tokens' | 'temperature'; said?: 'param' | 'message' }[];
  /** Forgets requests, plan, refusals and the call count (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** Configuration that points the app's summarizer at `fake` (D22). */
export const modelEnv = (fake: FakeOpenAi, model = 'gpt-test-mini'): Record<string, string> => ({
  SUMMARY_MODEL: model,
  OPENAI_API_KEY: fake.apiKey,
  OPENAI_BASE_URL: fake.baseURL,
});

const errorBody = (message: string, type: string, code: string | null) => ({
  error: { message, type, param: null, code },
});

/** The 400 of a refused field, worded as OpenAI words it, or as a compatible server that names no `param`. */
function refusalBody(field: string, said: 'param' | 'message') {
  if (said === 'message') {
    return errorBody(`Unrecognized request argument supplied: ${field}`, 'invalid_request_error', null);
  }
  const message =
    field === 'temperature'
      ? "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported."
      : field === 'max_tokens'
        ? "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
        : "Unsupported parameter: 'max_completion_tokens' is not supported with this model. Use 'max_tokens' instead.";
  const code = field === 'temperature' ? 'unsupported_value' : 'unsupported_parameter';
  return { error: { message, type: 'invalid_request_error', param: field, code } };
}

/** The fake model's summary: the summary so far, then one line about the new messages. */
export function fakeSummary(userContent: string, callNumber: number): string {
  const soFar = /<summary_so_far>\n([\s\S]*?)\n<\/summary_so_far>/.exec(userContent)?.[1] ?? '';
  const lines = (/<new_messages>\n([\s\S]*?)\n<\/new_messages>/.exec(userContent)?.[1] ?? '').split('\n');
  const first = lines[0]?.split(/\s+/).slice(0, 8).join(' ') ?? '';
  const previous = soFar.startsWith('(none yet') ? '' : `${soFar}\n`;
  return `${previous}Part ${callNumber}: ${lines.length} messages, starting "${first}".`;
}

export async function startFakeOpenAi(apiKey = 'sk-test-fake-key'): Promise<FakeOpenAi> {
  const requests: ChatRequest[] = [];
  const answers: string[] = [];
  const plan: FakeBehaviour[] = [];
  const refuse: FakeOpenAi['refuse'] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${calls}` });
        res.end(JSON.stringify(body));
      };
      let body: ChatRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(
          400,
          errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', null),
        );
        return;
      }
      requests.push({ headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        send(
          404,
          errorBody(`Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error', 'unknown_url'),
        );
        return;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        send(401, errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
        return;
      }
      if (typeof body.model !== 'string' || !Array.isArray(body.messages) || body.messages.length === 0) {
        send(400, errorBody('Missing required parameter: model or messages', 'invalid_request_error', null));
        return;
      }
      const refusal = refuse.find(
        ({ field }) => body[field] !== undefined && !(field === 'temperature' && body.temperature === 1),
      );
      if (refusal) {
        send(400, refusalBody(refusal.field, refusal.said ?? 'param'));
        return;
      }
      calls += 1;
      const behaviour = plan.shift() ?? { kind: 'summarize' };
      if (behaviour.kind === 'hang') return; // The connection stays open until the client gives up.
      if (behaviour.kind === 'fail') {
        send(
          behaviour.status,
          errorBody(behaviour.message ?? 'The server had an error', 'server_error', null),
        );
        return;
      }
      if (behaviour.kind === 'summarize' && behaviour.before) await behaviour.before();
      const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
      let content = behaviour.kind === 'reply' ? behaviour.content : fakeSummary(user, calls);
      let finishReason = 'stop';
      // Like the real API: the answer stops at max_tokens.
      const words = content.split(' ');
      const limit = body.max_completion_tokens ?? body.max_tokens;
      while (limit !== undefined && countTokens(content) > limit) {
        words.pop();
        content = words.join(' ');
        finishReason = 'length';
      }
      const promptTokens = body.messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 3);
      const completionTokens = countTokens(content);
      answers.push(content);
      send(200, {
        id: `chatcmpl-fake${calls}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
        system_fingerprint: 'fp_fake',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    answers,
    plan,
    refuse,
    reset() {
      requests.length = 0;
      answers.length = 0;
      plan.length = 0;
      refuse.length = 0;
      calls = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
