import type { CandidateRow } from './repository.js';

// How the two signals become one relevance in 0-1 (D39). Plain reciprocal rank fusion only sees
// ranks: a row that shares a few common words with the query keeps a high lexical rank, and on a
// paraphrase (no shared words with the answer) it pushes the answer out of the top results. So
// each signal is first turned into an absolute score with a fixed calibration, then the scores
// are mixed with weights measured on the labelled set in test/fixtures (npm run eval:search).

/**
 * Cosine similarities of the default model (USE lite) between unrelated chat lines sit around
 * 0.1-0.3 and between a question and its answer around 0.45-0.8; the score maps that range to 0-1.
 */
export const SEMANTIC_FLOOR = 0.2;
export const SEMANTIC_CEILING = 0.8;
/** Weight of the semantic score in hybrid relevance; the lexical score gets the rest. */
export const SEMANTIC_WEIGHT = 0.65;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export function semanticScore(cosine: number | null): number {
  if (cosine === null) return 0;
  return clamp01((cosine - SEMANTIC_FLOOR) / (SEMANTIC_CEILING - SEMANTIC_FLOOR));
}

/**
 * The share of the query's words (lexemes, without stop words) that the row contains, with
 * Postgres' cover density rank (how close together they stand) as a small tie-breaker.
 */
export function lexicalScore(row: Pick<CandidateRow, 'matched' | 'lexemeCount' | 'rank'>): number {
  if (row.lexemeCount === 0 || row.matched === 0) return 0;
  const coverage = Math.min(1, row.matched / row.lexemeCount);
  return clamp01(0.9 * coverage + 0.1 * (row.rank / (row.rank + 0.1)));
}

export type Strategy = 'hybrid' | 'semantic' | 'lexical';

export function relevance(row: CandidateRow, strategy: Strategy): number {
  const lexical = lexicalScore(row);
  if (strategy === 'lexical') return lexical;
  const semantic = semanticScore(row.cosine);
  if (strategy === 'semantic') return semantic;
  // A row written a moment ago has no vector yet: its words are all the evidence there is (D40).
  if (row.cosine === null) return lexical;
  return SEMANTIC_WEIGHT * semantic + (1 - SEMANTIC_WEIGHT) * lexical;
}
