import { setImmediate } from 'node:timers/promises';
import { type Summarizer, type SummaryInput, speakerOf } from './summarizer.js';
import { countTokens } from '../lib/tokens.js';

// D22: the built-in, offline summarizer. It extracts sentences, never writes any: sentences are
// ranked by TextRank (PageRank over a graph whose edges are the TF-IDF cosine similarity of two
// sentences), the best ones are kept within the token budget, skipping near-repeats, and they are
// written back in the order of the conversation under the name of their speaker.

export const EXTRACTIVE_MODEL = 'parley-extractive-textrank-1';

/** Longest stretch of summarizing between two turns of the event loop. */
const SLICE_MS = 15;

type Pause = () => Promise<void>;

/**
 * Summarizing is CPU work on the server's one thread: it hands the event loop back every
 * SLICE_MS, so that other requests are answered (and load shedding sees no stall) meanwhile.
 */
function pacer(): Pause {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await setImmediate();
    sliceStart = performance.now();
  };
}

/** Sentences longer than this many words are ranked in pieces, so one pasted log cannot fill the budget. */
const MAX_SENTENCE_WORDS = 60;
/** Sentences ranked in one graph; longer dialogues are ranked window by window (memory n^2). */
const WINDOW = 600;
const DAMPING = 0.85;
const ITERATIONS = 60;
/** Two sentences more similar than this say the same thing: only the better one is kept. */
const REDUNDANT = 0.75;
/** Sentences of the previous summary already stand for many messages each (incremental compaction). */
const PREVIOUS_SUMMARY_PRIOR = 2;
/** Written between two kept sentences of one message that were not next to each other. */
const ELISION = ' … ';

interface Unit {
  speaker: string | null;
}

interface Sentence {
  unit: number;
  /** Position within the unit; sentences of one segment with consecutive positions were adjacent. */
  index: number;
  segment: number;
  text: string;
  terms: Map<string, number>;
  vector: Map<string, number>;
  prior: number;
  score: number;
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Sentences of a text, whitespace collapsed; overlong ones cut into pieces of whole words. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    for (const line of segment.split(/\n+/)) {
      const words = line.split(/\s+/).filter(Boolean);
      for (let start = 0; start < words.length; start += MAX_SENTENCE_WORDS) {
        sentences.push(words.slice(start, start + MAX_SENTENCE_WORDS).join(' '));
      }
    }
  }
  return sentences;
}

// Function words carry no topic: they would link every sentence to every other one.
const STOPWORDS = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being
  below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
  during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
  here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
  let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves
  out over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their
  theirs them themselves then there there's these they they'd they'll they're they've this those through
  to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
  where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're
  you've your yours yourself yourselves also just will yes ok okay thanks thank please sure hi hello hey
  get got let like one would could well really now know think see want need go going good great
  sound sounds perfect fine bye right hmm oh`.split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Content terms of a sentence with their counts: lower case, stopwords out, plurals folded. */
export function termsOf(sentence: string): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (term: string) => terms.set(term, (terms.get(term) ?? 0) + 1);
  for (const [match] of sentence.matchAll(WORD)) {
    const word = match.toLowerCase().replace(/’/g, "'");
    if (STOPWORDS.has(word)) continue;
    if (CJK.test(word)) {
      // Scripts written without spaces: character bigrams stand in for words.
      const chars = Array.from(word);
      if (chars.length === 1) add(word);
      for (let i = 0; i + 1 < chars.length; i++) add(chars[i]! + chars[i + 1]!);
      continue;
    }
    if (word.length < 2 && !/\d/.test(word)) continue;
    add(stem(word));
  }
  return terms;
}

function stem(word: string): string {
  const base = word.replace(/'s$/, '');
  if (/\d/.test(base)) return base;
  if (base.length > 4 && base.endsWith('ies')) return `${base.slice(0, -3)}y`;
  if (base.length > 3 && base.endsWith('s') && !/(ss|us|is)$/.test(base)) return base.slice(0, -1);
  return base;
}

/** A summary line of ours: `speaker: sentences`, the speaker being a role or `name (role)`. */
const SUMMARY_LINE = /^((?:user|assistant|system)|[^:\n]{1,64} \((?:user|assistant|system)\)): (.+)$/;

async function collectSentences(
  input: SummaryInput,
  pause: Pause,
): Promise<{ units: Unit[]; sentences: Sentence[] }> {
  const units: Unit[] = [];
  const sentences: Sentence[] = [];
  const addUnit = (speaker: string | null, segments: string[], prior: number) => {
    const unit = units.push({ speaker }) - 1;
    let index = 0;
    segments.forEach((segmentText, segment) => {
      for (const text of splitSentences(segmentText)) {
        const terms = termsOf(text);
        sentences.push({
          unit,
          index: index++,
          segment,
          text,
          terms,
          vector: new Map(),
          prior,
          score: 0,
        });
      }
    });
  };
  for (const line of (input.previous ?? '').split('\n')) {
    if (!line.trim()) continue;
    const match = SUMMARY_LINE.exec(line);
    const [speaker, rest] = match ? [match[1]!, match[2]!] : [null, line];
    addUnit(speaker, rest.split(ELISION), PREVIOUS_SUMMARY_PRIOR);
  }
  for (const message of input.messages) {
    addUnit(speakerOf(message), [message.text], 1);
    await pause();
  }
  return { units, sentences };
}

/** TF-IDF vectors, unit length; each sentence is a document. */
function weighTerms(sentences: Sentence[]): void {
  const documentFrequency = new Map<string, number>();
  for (const sentence of sentences) {
    for (const term of sentence.terms.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const n = sentences.length;
  for (const sentence of sentences) {
    let norm = 0;
    for (const [term, count] of sentence.terms) {
      const weight = (1 + Math.log(count)) * Math.log((n + 1) / documentFrequency.get(term)!);
      sentence.vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    for (const [term, weight] of sentence.vector) {
      if (norm === 0 || weight === 0) sentence.vector.delete(term);
      else sentence.vector.set(term, weight / norm);
    }
  }
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) dot += weight * (large.get(term) ?? 0);
  return dot;
}

/** PageRank over the similarity graph of one window; returns scores with mean 1. */
async function textRank(window: Sentence[], pause: Pause): Promise<Float64Array> {
  const n = window.length;
  const similarity = new Float64Array(n * n);
  const postings = new Map<string, { at: number; weight: number }[]>();
  window.forEach((sentence, at) => {
    for (const [term, weight] of sentence.vector) {
      const list = postings.get(term);
      if (list) list.push({ at, weight });
      else postings.set(term, [{ at, weight }]);
    }
  });
  for (const list of postings.values()) {
    await pause();
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const product = list[i]!.weight * list[j]!.weight;
        similarity[list[i]!.at * n + list[j]!.at]! += product;
        similarity[list[j]!.at * n + list[i]!.at]! += product;
      }
    }
  }
  // Sparse transition lists: each sentence passes its rank to the sentences like it, in
  // proportion to their likeness.
  const targets: Int32Array[] = [];
  const shares: Float64Array[] = [];
  for (let j = 0; j < n; j++) {
    const row = similarity.subarray(j * n, (j + 1) * n);
    let total = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (row[i] !== 0) {
        total += row[i]!;
        count++;
      }
    }
    const to = new Int32Array(count);
    const share = new Float64Array(count);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (row[i] !== 0) {
        to[k] = i;
        share[k++] = row[i]! / total;
      }
    }
    targets.push(to);
    shares.push(share);
  }
  let rank = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    await pause();
    // Sentences linked to nothing spread their rank evenly, so the total stays 1.
    let dangling = 0;
    for (let j = 0; j < n; j++) if (targets[j]!.length === 0) dangling += rank[j]!;
    const next = new Float64Array(n).fill((1 - DAMPING) / n + (DAMPING * dangling) / n);
    for (let j = 0; j < n; j++) {
      const to = targets[j]!;
      const share = shares[j]!;
      const passed = DAMPING * rank[j]!;
      for (let k = 0; k < to.length; k++) next[to[k]!]! += passed * share[k]!;
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - rank[i]!);
    rank = next;
    if (change < 1e-7) break;
  }
  return rank.map((value) => value * n);
}

/** Facts live in numbers and names: sentences holding them weigh a little more. */
function informationWeight(sentence: Sentence): number {
  const termCount = [...sentence.terms.values()].reduce((sum, count) => sum + count, 0);
  // Sentences of one or two content words ("Sounds good.") rarely carry a fact.
  const substance = termCount === 0 ? 0.05 : Math.min(1, Math.max(0.1, termCount / 4));
  const hasNumber = /\p{N}/u.test(sentence.text) ? 1.25 : 1;
  const hasName = /\S\s+\p{Lu}[\p{Ll}\p{N}]/u.test(sentence.text) ? 1.1 : 1;
  return substance * hasNumber * hasName;
}

/** A continued conversation needs its latest turns most: weight grows from 0.75 to 1.25 along it. */
const RECENCY = 0.5;

async function rank(units: Unit[], sentences: Sentence[], pause: Pause): Promise<void> {
  weighTerms(sentences);
  const last = Math.max(1, units.length - 1);
  const windows = Math.ceil(sentences.length / WINDOW);
  const size = Math.ceil(sentences.length / windows);
  for (let start = 0; start < sentences.length; start += size) {
    await pause();
    const window = sentences.slice(start, start + size);
    const scores = await textRank(window, pause);
    window.forEach((sentence, i) => {
      const recency = 1 - RECENCY / 2 + (RECENCY * sentence.unit) / last;
      sentence.score = scores[i]! * sentence.prior * recency * informationWeight(sentence);
    });
  }
}

/** The kept sentences in conversation order, one line per message (or previous summary line). */
function render(units: Unit[], kept: Sentence[]): string {
  const ordered = [...kept].sort((a, b) => a.unit - b.unit || a.index - b.index);
  const lines: string[] = [];
  let line = '';
  let previous: Sentence | undefined;
  for (const sentence of ordered) {
    if (previous?.unit !== sentence.unit) {
      if (previous) lines.push(line);
      const speaker = units[sentence.unit]!.speaker;
      line = speaker ? `${speaker}: ${sentence.text}` : sentence.text;
    } else {
      const adjacent = previous.segment === sentence.segment && previous.index + 1 === sentence.index;
      line += (adjacent ? ' ' : ELISION) + sentence.text;
    }
    previous = sentence;
  }
  if (previous) lines.push(line);
  return lines.join('\n');
}

/** Sentences with fewer content words than this and no number are filler ("Hmm.", "Got it."). */
const MIN_TERMS = 2;
/** Only the best-ranked sentences compete for the summary (a summary holds a few dozen). */
const CANDIDATES = 500;
/** Maximal marginal relevance: how much a sentence's rank counts against its likeness to kept ones. */
const RELEVANCE = 0.5;

function isSubstantial(sentence: Sentence): boolean {
  return sentence.terms.size >= MIN_TERMS || /\p{N}/u.test(sentence.text);
}

/**
 * Chooses sentences by maximal marginal relevance (rank, less likeness to the sentences already
 * kept, so one repeated theme cannot fill the summary) until the budget is spent.
 */
async function select(
  units: Unit[],
  sentences: Sentence[],
  budget: number,
  pause: Pause,
): Promise<Sentence[]> {
  const substantial = sentences.filter(isSubstantial);
  const pool = (substantial.length > 0 ? substantial : sentences)
    .map((sentence, order) => ({ sentence, order }))
    .sort((a, b) => b.sentence.score - a.sentence.score || a.order - b.order)
    .slice(0, CANDIDATES)
    .map(({ sentence }) => sentence);
  const tokens = pool.map((sentence) => countTokens(sentence.text));
  const topScore = pool[0]?.score || 1;
  const likeness = new Float64Array(pool.length);
  const open = new Set(pool.keys());
  const kept: Sentence[] = [];
  const labelled = new Set<number>();
  let used = 0;
  while (open.size > 0 && budget - used >= 2) {
    await pause();
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const at of open) {
      const sentence = pool[at]!;
      // A new line costs its speaker label; a sentence added to a line costs a separator.
      const labelCost = labelled.has(sentence.unit)
        ? 2
        : countTokens(`${units[sentence.unit]!.speaker ?? ''}: \n`);
      if (likeness[at]! > REDUNDANT || used + tokens[at]! + labelCost > budget + 2) {
        open.delete(at);
        continue;
      }
      const value = RELEVANCE * (sentence.score / topScore) - (1 - RELEVANCE) * likeness[at]!;
      if (value > bestValue) {
        bestValue = value;
        best = at;
      }
    }
    if (best < 0) break;
    open.delete(best);
    const chosen = pool[best]!;
    kept.push(chosen);
    const total = countTokens(render(units, kept));
    if (total > budget) {
      kept.pop();
      continue;
    }
    used = total;
    labelled.add(chosen.unit);
    for (const at of open) likeness[at] = Math.max(likeness[at]!, cosine(chosen.vector, pool[at]!.vector));
  }
  return kept;
}

export function createExtractiveSummarizer(options: { maxSummaryTokens: number }): Summarizer {
  return {
    provider: 'parley',
    model: EXTRACTIVE_MODEL,
    maxSummaryTokens: options.maxSummaryTokens,
    async summarize(input) {
      const pause = pacer();
      const { units, sentences } = await collectSentences(input, pause);
      if (sentences.length === 0) return '';
      await rank(units, sentences, pause);
      return render(units, await select(units, sentences, options.maxSummaryTokens, pause));
    },
  };
}
