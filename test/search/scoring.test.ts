import { describe, expect, it } from 'vitest';
import type { TermStats } from '../../src/modules/search/repository.js';
import {
  DEFAULT_FUSION,
  lexemeWeights,
  lexicalScore,
  relevance,
  semanticScore,
  withNeighbours,
} from '../../src/modules/search/scoring.js';

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

describe('neighbours (D181)', () => {
  const fusion = { ...DEFAULT_FUSION, neighbourWeight: 0.2 };
  /** Messages m1-m4 of dialogue d1 in order, and a lone m9 in d2. */
  const candidate = (id: string, relevance: number, previousId: string | null, dialogueId = 'd1') => ({
    dialogueId,
    id,
    previousId,
    relevance,
  });
  const byId = <T extends { dialogueId: string; id: string; relevance: number }>(rows: T[]) =>
    Object.fromEntries(
      rows.map((row) => [row.dialogueId === 'd1' ? row.id : `${row.dialogueId}/${row.id}`, row.relevance]),
    );

  it('lifts a candidate by the better of its adjacent candidates, before or after it', () => {
    const scored = byId(
      withNeighbours(
        [
          candidate('m1', 0.5, null),
          candidate('m2', 0.3, 'm1'),
          candidate('m3', 0.4, 'm2'),
          candidate('m9', 0.45, 'm8', 'd2'),
        ],
        fusion,
      ),
    );
    // m1 gains from m2 after it, m2 from m1 before it (the better of m1 and m3), m3 from m2.
    expect(scored.m1).toBeCloseTo(0.5 + 0.2 * 0.3);
    expect(scored.m2).toBeCloseTo(0.3 + 0.2 * 0.5);
    expect(scored.m3).toBeCloseTo(0.4 + 0.2 * 0.3);
    // m9's previous message is no candidate: nothing read, nothing gained.
    expect(scored['d2/m9']).toBe(0.45);
    // A match beside another match now outranks a lone one that scored a little higher.
    expect(scored.m3).toBeGreaterThan(scored['d2/m9']!);
  });

  it('counts neighbours within a dialogue only, adds the scores before any gain, stays within 0-1', () => {
    const rows = [
      candidate('m2', 0.9, 'm1'),
      candidate('m1', 0.95, null),
      candidate('m1', 0.6, null, 'd2'),
      candidate('m3', 0.2, 'm1', 'd2'),
    ];
    const scored = withNeighbours(rows, fusion);
    expect(scored.map((row) => row.relevance)).toEqual([1, 1, 0.6 + 0.2 * 0.2, 0.2 + 0.2 * 0.6]);
    // The same in any order.
    expect(byId(withNeighbours([...rows].reverse(), fusion))).toEqual(byId(scored));
  });

  it('leaves the scores alone at weight 0', () => {
    const rows = [candidate('m1', 0.5, null), candidate('m2', 0.3, 'm1')];
    expect(withNeighbours(rows, { ...fusion, neighbourWeight: 0 })).toEqual(rows);
  });
});
