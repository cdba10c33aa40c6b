import { countOf } from '../format.js';

/** Dialogues, messages and memories counted: an erasure's progress, a retention preview's totals. */
export function ObjectCounts({
  counts,
}: {
  counts: { dialogues: number; messages: number; memories: number };
}) {
  return (
    <span class="counts">
      {countOf(counts.dialogues, 'dialogue')}, {countOf(counts.messages, 'message')},{' '}
      {countOf(counts.memories, 'memory', 'memories')}
    </span>
  );
}
