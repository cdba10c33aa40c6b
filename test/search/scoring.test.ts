import { describe, expect, it } from 'vitest';
import type { TermStats } from '../../src/modules/search/repository.js';
import { lexemeWeights, lexicalScore, relevance, semanticScore } from '../../src/modules/search/scoring.js';

// The calibration of D39's relevance with D140's BM25 and D141's hub penalty, as plain functions.

/** 100 rows of 10 lexemes on average; "common" in 80 of them, "rare" in 2. */
const stats: TermStats = {
  table: 'messages',
  lexemes: ['common', 'rare'],
  documents: 100,
  length: 1000,
  frequencies: { common: 80, rare: 2 },
};

const row = (cosine: number | null, terms: Record<string, number>, length = 10, hub: number | null = 0) => ({
  rank: 0,
  dialogueId: '',
  id: 'x',
  cosine,
  hub,
  terms,
  length,
});

describe('relevance', () => {
  it('maps cosine similarity onto 0-1', () => {
    expect(semanticScore(null)).toBe(0);
    expect(semanticScore(0.1)).toBe(0);
    expect(semanticScore(0.5)).toBeCloseTo(0.5);
    expect(semanticScore(0.95)).toBe(1);
  });

  it('weighs a rare word above a common one, and both above one alone', () => {
    const rare = lexicalScore(row(null, { rare: 1 }), stats);
    const common = lexicalScore(row(null, { common: 1 }), stats);
    expect(lexicalScore(row(null, {}), stats)).toBe(0);
    expect(rare).toBeGreaterThan(3 * common);
    expect(lexicalScore(row(null, { rare: 1, common: 1 }), stats)).toBeGreaterThan(rare);
    expect(lexicalScore(row(null, { rare: 50, common: 50 }, 1), stats)).toBeLessThanOrEqual(1);
    const weights = lexemeWeights(stats);
    expect(weights.rare!).toBeGreaterThan(weights.common!);
  });

  it('scores without any counts yet (a fresh project) by the words alone', () => {
    const empty: TermStats = {
      table: 'messages',
      lexemes: ['word'],
      documents: 0,
      length: 0,
      frequencies: {},
    };
    expect(lexicalScore(row(null, { word: 1 }, 4), empty)).toBeGreaterThan(0);
  });

  it('keeps a paraphrase answer above a row sharing one common word', () => {
    const answer = relevance(row(0.62, {}), stats, 'hybrid');
    const oneWord = relevance(row(0.3, { common: 1 }), stats, 'hybrid');
    expect(answer).toBeGreaterThan(oneWord);
  });

  it('keeps an exact match of the rare words on top although its vector says little', () => {
    const exact = relevance(row(0.35, { rare: 1, common: 1 }), stats, 'hybrid');
    const similar = relevance(row(0.55, {}), stats, 'hybrid');
    expect(exact).toBeGreaterThan(similar);
  });

  it('takes the hub similarity off a hybrid score', () => {
    const plain = relevance(row(0.6, {}, 10, 0.1), stats, 'hybrid');
    const generic = relevance(row(0.6, {}, 10, 0.7), stats, 'hybrid');
    expect(generic).toBeLessThan(plain);
  });

  it('scores a row without a vector by its words alone, and stays within 0-1', () => {
    expect(relevance(row(null, { rare: 1 }), stats, 'hybrid')).toBe(
      lexicalScore(row(null, { rare: 1 }), stats),
    );
    for (const r of [row(1, { rare: 9, common: 9 }, 2), row(-1, {}, 10, 1), row(0.5, { common: 1 })]) {
      for (const strategy of ['hybrid', 'semantic', 'lexical'] as const) {
        const value = relevance(r, stats, strategy);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });
});
