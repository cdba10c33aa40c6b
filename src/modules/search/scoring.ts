import type { CandidateRow, TermStats } from './repository.js';
import { weightLevels } from './weight-levels.js';

// How the signals become one relevance in 0-1 (D39, D140, D141). Each signal is first turned into
// an absolute score with a fixed calibration (plain reciprocal rank fusion only sees ranks: a row
// sharing a common word with the query would keep a high lexical rank and push a paraphrase's
// answer down), then the scores are mixed with weights measured on the labelled set in
// test/fixtures and the LoCoMo development split together (npm run eval:search; docs/search.md).

/**
 * Cosine similarities of the default model (USE lite) between unrelated chat lines sit around
 * 0.1-0.3 and between a question and its answer around 0.45-0.8; the score maps that range to 0-1.
 */
const SEMANTIC_FLOOR = 0.2;
const SEMANTIC_CEILING = 0.8;

/**
 * Hybrid relevance = semanticWeight * semantic + (1 - semanticWeight) * lexical
 *                    - hubWeight * (similarity to the centre of generic questions).
 * lexical is BM25 (k1, b) over the scope's word counts (D140), divided by what a row holding every
 * query word once scores: a rare word weighs more than a common one, and a row holding only the
 * query's common words scores little.
 */
export interface Fusion {
  semanticWeight: number;
  hubWeight: number;
  k1: number;
  b: number;
  /** D181: the share of the better adjacent candidate's relevance a message's relevance gains. */
  neighbourWeight: number;
}

/**
 * Chosen with `npm run eval:search` and `npm run eval:search -- --locomo PATH` together
 * (docs/search.md, docs/benchmarks.md): the weights that keep the labelled set's paraphrase class
 * and the LoCoMo development split both up, not the best of either alone.
 */
export const DEFAULT_FUSION: Fusion = {
  semanticWeight: 0.5,
  hubWeight: 0.4,
  k1: 1.2,
  b: 0.3,
  neighbourWeight: 0.15,
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export function semanticScore(cosine: number | null): number {
  if (cosine === null) return 0;
  return clamp01((cosine - SEMANTIC_FLOOR) / (SEMANTIC_CEILING - SEMANTIC_FLOOR));
}

/** BM25's inverse document frequency (the +1 form, never negative). */
const idf = (stats: TermStats, lexeme: string) => {
  const df = Math.min(stats.frequencies[lexeme] ?? 0, stats.documents);
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
};

/** The weight of each of the query's lexemes (its idf): the order of the full-text candidates. */
export function lexemeWeights(stats: TermStats): Record<string, number> {
  return Object.fromEntries(stats.lexemes.map((lexeme) => [lexeme, idf(stats, lexeme)]));
}

/**
 * D188: the levels of held weight the full-text candidates are read by (weight-levels.ts). Words no
 * row of the scope holds weigh nothing there: they cannot lift a row.
 */
export function heldWeightLevels(stats: TermStats): string[] {
  const held = stats.lexemes
    .filter((lexeme) => (stats.frequencies[lexeme] ?? 0) > 0)
    .map((lexeme) => ({ lexeme, weight: idf(stats, lexeme) }));
  return weightLevels(held).map((level) => level.tsquery);
}

/**
 * BM25 of the row divided by the score of a row of average length holding each of the query's
 * words once (the sum of their idf): a row with all the words scores about 1, and never more.
 */
export function lexicalScore(
  row: Pick<CandidateRow, 'terms' | 'length' | 'rank'>,
  stats: TermStats,
  fusion: Fusion = DEFAULT_FUSION,
): number {
  const { k1 } = fusion;
  // A dialogue's text is its label and tags, and a summary once compacted: its length says how
  // much was summarized, not how diluted its topic is, so it is not held against it.
  const b = stats.table === 'dialogues' ? 0 : fusion.b;
  // A row counted after the statistics were read (or before any were kept) still has a length.
  const averageLength = stats.documents > 0 ? stats.length / stats.documents : row.length || 1;
  let score = 0;
  let ceiling = 0;
  for (const lexeme of stats.lexemes) {
    const weight = idf(stats, lexeme);
    ceiling += weight;
    const tf = row.terms[lexeme];
    if (tf) score += (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * row.length) / averageLength));
  }
  if (ceiling === 0) return 0;
  // Cover density (how close together the words stand) as a small tie-breaker, as before D140.
  return clamp01(0.95 * Math.min(1, score / ceiling) + 0.05 * (row.rank / (row.rank + 0.1)));
}

export type Strategy = 'hybrid' | 'semantic' | 'lexical';

export function relevance(
  row: Pick<CandidateRow, 'terms' | 'length' | 'rank' | 'cosine' | 'hub'>,
  stats: TermStats,
  strategy: Strategy,
  fusion: Fusion = DEFAULT_FUSION,
): number {
  const lexical = lexicalScore(row, stats, fusion);
  if (strategy === 'lexical') return lexical;
  const semantic = semanticScore(row.cosine);
  if (strategy === 'semantic') return semantic;
  // A row written a moment ago has no vector yet: its words are all the evidence there is (D40).
  if (row.cosine === null) return lexical;
  // D141: a line close to what any question resembles ("Sounds great!") loses its head start.
  const hub = fusion.hubWeight * Math.max(0, row.hub ?? 0);
  return clamp01(fusion.semanticWeight * semantic + (1 - fusion.semanticWeight) * lexical - hub);
}

/** A scored message candidate, with the message before it in its dialogue (D181). */
export interface Neighboured {
  dialogueId: string;
  id: string;
  previousId: string | null;
  relevance: number;
}

/**
 * D181: an answer often sits beside the line that matches the question (the question's words in
 * one turn, the answer in the reply; a fact told over two turns). Each message candidate gains
 * `neighbourWeight` times the relevance of the better of its two neighbours in its dialogue, among
 * the candidates already scored (no other row is read): the lines around a match rise with it,
 * and a match with a matching neighbour rises above a lone one. The relevances added are the
 * candidates' own, before any gain, so the result does not depend on their order.
 */
export function withNeighbours<T extends Neighboured>(rows: T[], fusion: Fusion = DEFAULT_FUSION): T[] {
  const weight = fusion.neighbourWeight;
  if (weight <= 0) return rows;
  const key = (dialogueId: string, id: string) => `${dialogueId}\u0000${id}`;
  const own = new Map(rows.map((row) => [key(row.dialogueId, row.id), row.relevance]));
  // The next message of a candidate is the candidate whose previous message it is.
  const next = new Map<string, number>();
  for (const row of rows) {
    if (row.previousId === null) continue;
    const before = key(row.dialogueId, row.previousId);
    next.set(before, Math.max(next.get(before) ?? 0, row.relevance));
  }
  return rows.map((row) => {
    const here = key(row.dialogueId, row.id);
    const before = row.previousId === null ? 0 : (own.get(key(row.dialogueId, row.previousId)) ?? 0);
    const best = Math.max(before, next.get(here) ?? 0);
    return best > 0 ? { ...row, relevance: clamp01(row.relevance + weight * best) } : row;
  });
}
