import type { Embedder } from '../../embedders/embedder.js';

// D141: the hub penalty. Some lines sit close to every question in embedding space ("Sounds
// great, tell me more!", "What happened?"): by similarity alone they top queries they do not
// answer. Their closeness to the centre of a few generic questions marks them, and relevance
// subtracts it (scoring.ts). The questions are generic chat, not drawn from any evaluation set.
const GENERIC_QUESTIONS = [
  'What did you do?',
  'How are you?',
  'What happened?',
  'Tell me more about it.',
  'What do you think?',
  'How was it?',
  'Why?',
  'What is going on?',
  'Can you tell me about that?',
  'What did they say?',
  'How did it go?',
  'What are you up to?',
  'What was that like?',
  'Is everything okay?',
  'What do you mean?',
  'Anything new?',
];

const centres = new WeakMap<Embedder, Promise<number[]>>();

/** The unit vector at the centre of the generic questions, embedded once per embedder. */
export function hubVector(embedder: Embedder): Promise<number[]> {
  let centre = centres.get(embedder);
  if (!centre) {
    centre = embedder.embed(GENERIC_QUESTIONS, 'query').then((vectors) => {
      const sum = vectors[0]!.map((_, i) => vectors.reduce((total, vector) => total + vector[i]!, 0));
      const norm = Math.sqrt(sum.reduce((total, x) => total + x * x, 0)) || 1;
      return sum.map((x) => x / norm);
    });
    // A failed attempt is not kept: the next search tries again.
    centre.catch(() => centres.delete(embedder));
    centres.set(embedder, centre);
  }
  return centre;
}
