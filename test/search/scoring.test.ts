import { describe, expect, it } from 'vitest';
import { lexicalScore, relevance, semanticScore } from '../../src/modules/search/scoring.js';

// The calibration of D39's relevance, as plain functions.

const row = (cosine: number | null, matched: number, lexemeCount: number, rank = 0.1) => ({
  dialogueId: '',
  id: 'x',
  cosine,
  matched,
  lexemeCount,
  rank,
});

describe('relevance', () => {
  it('maps cosine similarity onto 0-1', () => {
    expect(semanticScore(null)).toBe(0);
    expect(semanticScore(0.1)).toBe(0);
    expect(semanticScore(0.5)).toBeCloseTo(0.5);
    expect(semanticScore(0.95)).toBe(1);
  });

  it('scores words by the share of the query they cover', () => {
    expect(lexicalScore(row(null, 0, 3))).toBe(0);
    expect(lexicalScore(row(null, 0, 0))).toBe(0);
    expect(lexicalScore(row(null, 3, 3))).toBeGreaterThan(lexicalScore(row(null, 1, 3)));
    expect(lexicalScore(row(null, 3, 3, 100))).toBeLessThanOrEqual(1);
  });

  it('keeps a paraphrase answer above a row sharing one common word', () => {
    const answer = relevance(row(0.62, 0, 4), 'hybrid');
    const oneWord = relevance(row(0.3, 1, 4), 'hybrid');
    expect(answer).toBeGreaterThan(oneWord);
  });

  it('keeps an exact id match on top although its vector says little', () => {
    const idMatch = relevance(row(0.35, 2, 2), 'hybrid');
    const similar = relevance(row(0.55, 0, 2), 'hybrid');
    expect(idMatch).toBeGreaterThan(similar);
  });

  it('scores a row without a vector by its words alone, and stays within 0-1', () => {
    expect(relevance(row(null, 2, 2), 'hybrid')).toBe(lexicalScore(row(null, 2, 2)));
    for (const r of [row(1, 5, 5, 10), row(-1, 0, 5), row(0.5, 2, 5)]) {
      for (const strategy of ['hybrid', 'semantic', 'lexical'] as const) {
        const value = relevance(r, strategy);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });
});
