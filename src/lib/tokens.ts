import { countTokens as countBpeTokens } from 'gpt-tokenizer/encoding/o200k_base';

// Budgets are counted in o200k_base tokens (the encoding of current OpenAI chat models). Other
// models' tokenizers differ by a few percent; the per-call budget leaves room for that in its
// default. Special-token markers in conversation text are counted as plain text, never refused.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return text === '' ? 0 : countBpeTokens(text, PLAIN_TEXT);
}

/**
 * Splits text into consecutive pieces of at most `maxTokens` tokens each, cut before a word
 * where possible; the pieces joined give back the text.
 */
export function splitByTokens(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= maxTokens) return [text];
  // Words keep their leading whitespace, as the tokenizer's own pre-split does, so that the
  // sum of their counts is the count of their concatenation (checked again at each cut).
  const words = text.match(/\s*\S+|\s+$/g) ?? [text];
  const pieces: string[] = [];
  let current: string[] = [];
  let used = 0;
  const flush = () => {
    while (current.length > 1 && countTokens(current.join('')) > maxTokens) {
      const last = current.pop()!;
      pieces.push(...takeWhole(current));
      current = [last];
    }
    pieces.push(...takeWhole(current));
    current = [];
    used = 0;
  };
  const takeWhole = (parts: string[]): string[] => {
    const joined = parts.join('');
    return joined === '' ? [] : countTokens(joined) <= maxTokens ? [joined] : splitWord(joined, maxTokens);
  };
  for (const word of words) {
    const cost = countTokens(word);
    if (used + cost > maxTokens && current.length > 0) flush();
    current.push(word);
    used += cost;
  }
  flush();
  return pieces;
}

/** A run without whitespace longer than the budget: cut by characters (code points). */
function splitWord(word: string, maxTokens: number): string[] {
  const chars = Array.from(word);
  const pieces: string[] = [];
  let start = 0;
  while (start < chars.length) {
    // The longest prefix within the budget, by binary search (a token covers at least one byte).
    let low = start + 1;
    let high = Math.min(chars.length, start + maxTokens * 8);
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (countTokens(chars.slice(start, mid).join('')) <= maxTokens) low = mid;
      else high = mid - 1;
    }
    pieces.push(chars.slice(start, low).join(''));
    start = low;
  }
  return pieces;
}
