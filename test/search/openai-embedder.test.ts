import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '../../src/embedders/openai.js';
import { type FakeOpenAi, startFakeOpenAi } from '../helpers/openai-server.js';

// D41: the OpenAI-compatible embedder against a local endpoint that answers like the real API.

describe('openai embedder', () => {
  let server: FakeOpenAi;
  beforeAll(async () => {
    server = await startFakeOpenAi({ dimensions: 64 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends the model, the texts, float encoding and the configured dimensions, with the key', async () => {
    const embedder = await createOpenAiEmbedder({
      apiKey: 'sk-test-key',
      baseURL: server.baseURL,
      model: 'text-embedding-3-small',
      dimensions: 64,
    });
    expect(embedder.id).toBe('openai/text-embedding-3-small/64');
    expect(embedder.dimensions).toBe(64);
    server.requests.length = 0;
    const vectors = await embedder.embed(['first text', 'second text']);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.headers.authorization).toBe('Bearer sk-test-key');
    expect(request!.body).toMatchObject({
      model: 'text-embedding-3-small',
      input: ['first text', 'second text'],
      encoding_format: 'float',
      dimensions: 64,
    });
    // Answered in reverse order: the vectors still follow the input order, normalized.
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) {
      expect(vector).toHaveLength(64);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    }
    const [again] = await embedder.embed(['second text']);
    expect(again).toEqual(vectors[1]);
  });

  it('batches large inputs', async () => {
    const embedder = await createOpenAiEmbedder({
      baseURL: server.baseURL,
      model: 'local-model',
      dimensions: 64,
      batchSize: 3,
    });
    server.requests.length = 0;
    const vectors = await embedder.embed(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(vectors).toHaveLength(7);
    expect(server.requests.map((r) => r.body.input.length)).toEqual([3, 3, 1]);
  });

  it('learns the dimension of an unknown model from one request', async () => {
    server.requests.length = 0;
    const embedder = await createOpenAiEmbedder({ baseURL: server.baseURL, model: 'some-local-model' });
    expect(embedder.dimensions).toBe(64);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.dimensions).toBeUndefined();
  });

  it('retries 429 and 5xx answers with backoff, then succeeds', async () => {
    const embedder = await createOpenAiEmbedder({
      baseURL: server.baseURL,
      model: 'text-embedding-3-small',
      dimensions: 64,
      maxRetries: 3,
    });
    server.requests.length = 0;
    server.failNext(429, 503);
    const vectors = await embedder.embed(['retried text']);
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after its retries and reports the failure', async () => {
    const embedder = await createOpenAiEmbedder({
      baseURL: server.baseURL,
      model: 'text-embedding-3-small',
      dimensions: 64,
      maxRetries: 1,
    });
    server.failNext(500, 500);
    await expect(embedder.embed(['never embedded'])).rejects.toThrow();
  });
});
