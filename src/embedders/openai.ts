import OpenAI from 'openai';
import { type Embedder, normalize, prepareText } from './embedder.js';

export interface OpenAiEmbedderOptions {
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** Sent as `dimensions` when set (text-embedding-3 models shorten their vectors). */
  dimensions?: number;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  /** Retries of one request on 408/409/429/5xx and network errors, with exponential backoff. */
  maxRetries?: number;
}

/** Dimensions of well-known models, so that no request is needed to learn them. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/**
 * D41: any OpenAI-compatible embeddings endpoint. Retries with backoff are the SDK's own (it
 * honours Retry-After on 429); the queue retries a failed batch later on top of that (D40).
 */
export async function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Promise<Embedder> {
  const client = new OpenAI({
    // A keyless local endpoint (OPENAI_BASE_URL only) still needs a placeholder for the SDK.
    apiKey: options.apiKey ?? 'unused',
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 4,
  });
  const batchSize = options.batchSize ?? 96;

  async function request(texts: string[]): Promise<number[][]> {
    const response = await client.embeddings.create({
      model: options.model,
      input: texts,
      // float, not the SDK's default base64: every compatible server understands it.
      encoding_format: 'float',
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    });
    const ordered = [...response.data].sort((a, b) => a.index - b.index);
    if (ordered.length !== texts.length) {
      throw new Error(`embeddings endpoint returned ${ordered.length} vectors for ${texts.length} texts`);
    }
    return ordered.map((entry) => normalize(entry.embedding));
  }

  const dimensions =
    options.dimensions ?? KNOWN_DIMENSIONS[options.model] ?? (await request(['dimension probe']))[0]!.length;

  return {
    id: `openai/${options.model}/${dimensions}`,
    dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const vectors = await request(texts.slice(i, i + batchSize).map((text) => prepareText(text) || ' '));
        for (const vector of vectors) {
          if (vector.length !== dimensions) {
            throw new Error(`expected ${dimensions} dimensions, the endpoint returned ${vector.length}`);
          }
          out.push(vector);
        }
      }
      return out;
    },
    async close() {},
  };
}
