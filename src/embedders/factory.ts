import type { Config } from '../config.js';
import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local.js';
import { createOpenAiEmbedder } from './openai.js';

export type { Embedder } from './embedder.js';

/** The embedder the configuration names (D41); `none` gives lexical search only. */
export async function createEmbedderFromConfig(config: Config): Promise<Embedder | undefined> {
  switch (config.EMBEDDINGS) {
    case 'none':
      return undefined;
    case 'local':
      return createLocalEmbedder({ backgroundShare: config.EMBEDDING_BACKGROUND_SHARE });
    case 'openai':
      return createOpenAiEmbedder({
        apiKey: config.OPENAI_API_KEY,
        baseURL: config.OPENAI_BASE_URL,
        model: config.EMBEDDING_MODEL,
        dimensions: config.EMBEDDING_DIMENSIONS,
      });
  }
}
