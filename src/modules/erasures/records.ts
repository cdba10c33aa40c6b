import type { ErasureRow } from './repository.js';

// The API's erasure record (D162): the receipt of a namespace's erasure.

export interface ErasureCounts {
  dialogues: number;
  messages: number;
  memories: number;
}

export interface ErasureRecord {
  id: string;
  namespace: string;
  status: 'pending' | 'completed';
  counts: ErasureCounts;
  createdAt: string;
  completedAt: string | null;
}

export const emptyCounts = (): ErasureCounts => ({ dialogues: 0, messages: 0, memories: 0 });

export const toErasureRecord = (row: ErasureRow): ErasureRecord => ({
  id: row.id,
  namespace: row.namespace,
  status: row.status,
  counts: { ...emptyCounts(), ...row.counts },
  createdAt: row.created.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
});
