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
const SEMANTIC_FLOOR = 0.2;
const SEMANTIC_CEILING = 0.8;
/**
 * Hybrid relevance = semanticWeight * semantic + (1 - semanticWeight) * lexical^lexicalPower.
 * The power gates the lexical part: a row holding all the query's words (a name, an id) keeps its
 * full lexical score, one holding a common word or two of it gets almost nothing, so it cannot
 * push a paraphrase's answer down.
 */
export interface Fusion {
  semanticWeight: number;
  lexicalPower: number;
}

/**
 * Chosen with `npm run eval:search -- --grid` (figures in docs/benchmarks.md): the smallest-weight
 * setting whose hybrid recall@5 is at least the better single signal's on every query class.
 */
export const DEFAULT_FUSION: Fusion = { semanticWeight: 0.7, lexicalPower: 3 };

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

export function relevance(row: CandidateRow, strategy: Strategy, fusion: Fusion = DEFAULT_FUSION): number {
  const lexical = lexicalScore(row);
  if (strategy === 'lexical') return lexical;
  const semantic = semanticScore(row.cosine);
  if (strategy === 'semantic') return semantic;
  // A row written a moment ago has no vector yet: its words are all the evidence there is (D40).
  if (row.cosine === null) return lexical;
  return fusion.semanticWeight * semantic + (1 - fusion.semanticWeight) * lexical ** fusion.lexicalPower;
}
