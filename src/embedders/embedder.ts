// D41: every embedding provider behind one small interface. The id is stored beside each vector
// (`embedding_model`), so vectors of different models are never compared.

/**
 * Who waits for an embedding: a search request (`query`), or the embedding worker (`background`,
 * the default). An embedder that shares one model between the two serves queries first.
 */
export type EmbedLane = 'query' | 'background';

export interface Embedder {
  /** Names the model and its dimension; stored with every vector it makes. */
  readonly id: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. Texts must not be empty. */
  embed(texts: string[], lane?: EmbedLane): Promise<number[][]>;
  close(): Promise<void>;
}

/** Characters of a text that reach a model; longer texts are cut (chat turns rarely get there). */
const MAX_EMBED_CHARS = 8_000;

export function prepareText(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed.length > MAX_EMBED_CHARS ? trimmed.slice(0, MAX_EMBED_CHARS) : trimmed;
}

export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((x) => x / norm);
}
