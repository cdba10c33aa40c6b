// D188: the full-text candidates are read level by level of held weight (the summed weights of
// the query's words a row holds, the order they are ranked in). Each level is a tsquery that the
// GIN index answers on its own: which combinations of the query's words reach the level. The
// index then hands the heap only the rows that reach it, where a query of common words (every word
// held by thousands of rows) would have every row holding any of them read and weighed.

export interface WeightedLexeme {
  lexeme: string;
  /** Its weight in the order of the full-text candidates (BM25's idf, scoring.ts). */
  weight: number;
}

/**
 * A formula over "the row holds this lexeme", in the form of a decision on one lexeme at a time:
 * `(lexeme AND then) OR otherwise`. true and false are the constants.
 */
type Formula = boolean | { lexeme: string; then: Formula; otherwise: Formula };

/**
 * The levels' thresholds, as shares of the greatest held weight (a row holding every word). A
 * level's rows are counted before the next is read; 0.2 is about one word of five, below which a
 * row holds few of the query's words and the last level (any word) takes over.
 */
const LEVEL_SHARES = [1, 0.8, 0.6, 0.4, 0.2];

/**
 * A level whose tsquery would name more lexemes than this is left out (its rows are then read by
 * the level below): the formula of a threshold halfway down grows fast with the number of words,
 * and the index tests every row it finds against all of it.
 */
export const MAX_LEVEL_OPERANDS = 64;

/**
 * "The row's held weight is at least `threshold`", over `lexemes` sorted by weight, heaviest
 * first: each lexeme either is held (the rest must reach the threshold less its weight) or not
 * (the rest must reach all of it). Branches that cannot reach it, or have already, are cut.
 */
function atLeast(lexemes: WeightedLexeme[], threshold: number, from = 0): Formula {
  // A tolerance below the threshold: the same sum taken in another order must still reach it.
  if (threshold <= 1e-9) return true;
  let reachable = 0;
  for (let i = from; i < lexemes.length; i++) reachable += lexemes[i]!.weight;
  if (reachable < threshold - 1e-9) return false;
  const { lexeme, weight } = lexemes[from]!;
  const then = atLeast(lexemes, threshold - weight, from + 1);
  const otherwise = atLeast(lexemes, threshold, from + 1);
  if (then === false) return otherwise;
  return { lexeme, then, otherwise };
}

/** A lexeme as a tsquery operand: quoted, so that no character of it is read as an operator. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The formula as tsquery text, and the lexemes it names; never called on a constant. */
function toTsquery(formula: Exclude<Formula, boolean>): { text: string; operands: number } {
  const { lexeme, then, otherwise } = formula;
  let text = operand(lexeme);
  let operands = 1;
  if (then !== true) {
    const inner = toTsquery(then as Exclude<Formula, boolean>);
    text = `${text} & (${inner.text})`;
    operands += inner.operands;
  }
  if (otherwise !== false) {
    const inner = toTsquery(otherwise as Exclude<Formula, boolean>);
    text = `(${text}) | (${inner.text})`;
    operands += inner.operands;
  }
  return { text, operands };
}

/** The held weights a row can have: the sums of every subset of the lexemes, in ascending order. */
function subsetSums(lexemes: WeightedLexeme[]): number[] {
  let sums = [0];
  for (const { weight } of lexemes) sums = [...sums, ...sums.map((sum) => sum + weight)];
  return [...new Set(sums)].sort((a, b) => a - b);
}

/** Lexemes past this many are too many for levels: 2^n subset sums, and formulas past the bound. */
const MAX_LEVEL_LEXEMES = 12;

export interface WeightLevel {
  /** The least held weight of its rows. */
  threshold: number;
  /** The rows whose held weight reaches the threshold, as a tsquery. */
  tsquery: string;
}

/**
 * The levels, highest first: the least held weight a row can have at or above each share of
 * LEVEL_SHARES, and the tsquery of the rows that reach it. Empty when levels would not pay: one
 * lexeme, or more than MAX_LEVEL_LEXEMES.
 */
export function weightLevels(held: WeightedLexeme[]): WeightLevel[] {
  const lexemes = held.filter(({ weight }) => weight > 0).sort((a, b) => b.weight - a.weight);
  if (lexemes.length < 2 || lexemes.length > MAX_LEVEL_LEXEMES) return [];
  const sums = subsetSums(lexemes);
  const total = sums[sums.length - 1]!;
  const thresholds = new Set(LEVEL_SHARES.map((share) => sums.find((sum) => sum >= share * total - 1e-9)!));
  const levels: WeightLevel[] = [];
  for (const threshold of thresholds) {
    const formula = atLeast(lexemes, threshold);
    if (typeof formula === 'boolean') continue;
    const { text, operands } = toTsquery(formula);
    if (operands <= MAX_LEVEL_OPERANDS) levels.push({ threshold, tsquery: text });
  }
  return levels;
}
