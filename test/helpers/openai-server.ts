import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local OpenAI-compatible embeddings endpoint for tests: it answers like the real API
// (`{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}`), records
// every request, and fails on demand with the statuses a provider sends (429 with Retry-After, 5xx).

interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

export interface FakeOpenAi {
  baseURL: string;
  requests: RecordedRequest[];
  /** Statuses answered, in order, before the next successful responses. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

/**
 * A deterministic vector per text: words hashed into buckets, so texts sharing words are close.
 * Enough to test the plumbing; meaning is the local model's job.
 */
function hashedVector(text: string, dimensions: number): number[] {
  const vector: number[] = Array.from({ length: dimensions }, () => 0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const bucket = createHash('sha256').update(word).digest().readUInt32BE(0) % dimensions;
    vector[bucket]! += 1;
  }
  if (!vector.some((x) => x !== 0)) vector[0] = 1;
  return vector;
}

export async function startFakeOpenAi(options: { dimensions: number }): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  const failures: number[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const body = JSON.parse(raw) as RecordedRequest['body'];
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    const failure = failures.shift();
    if (failure !== undefined) {
      res.writeHead(failure, {
        'content-type': 'application/json',
        ...(failure === 429 ? { 'retry-after': '0' } : {}),
      });
      res.end(JSON.stringify({ error: { message: `failure ${failure}`, type: 'server_error' } }));
      return;
    }
    if (req.url !== '/v1/embeddings') {
      res.writeHead(404).end();
      return;
    }
    const dimensions = body.dimensions ?? options.dimensions;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        // The real API may answer in any order; each entry names its index.
        data: body.input
          .map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text, dimensions) }))
          .reverse(),
        model: body.model,
        usage: { prompt_tokens: body.input.length, total_tokens: body.input.length },
      }),
    );
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (...statuses) => failures.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
