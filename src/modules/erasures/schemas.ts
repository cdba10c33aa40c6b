import { z } from 'zod';
import { namespaceSchema } from '../../core/fields.js';

// The zod contract of the erasure routes (D162).

export const erasureSchema = z
  .object({
    id: z.string(),
    namespace: z.string(),
    status: z.enum(['pending', 'completed']).describe('`completed` once nothing of the namespace is left'),
    counts: z
      .object({ dialogues: z.number().int(), messages: z.number().int(), memories: z.number().int() })
      .describe('What has been erased so far; final once `completed`'),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'Erasure' });

export const namespaceParams = z.object({ namespace: namespaceSchema });

export const erasureParams = z.object({ id: z.string().min(1).max(255) });
