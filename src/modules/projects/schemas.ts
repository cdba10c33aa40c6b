import { z } from 'zod';
import { coded } from '../../core/validation.js';
import { ALLOW_LIST_ENTRY_HINT, parseAllowListEntry } from '../../lib/allow-list-entry.js';
import { retentionPolicySchema } from '../retention/schemas.js';

// D8: project settings, all optional.
export const projectSettingsSchema = z
  .object({
    immutableDialogues: z.boolean().optional(),
    ipAllowList: z
      .array(
        z
          .string()
          .min(1)
          .max(64)
          // D45: a bad entry is refused when stored, not discovered when a request is checked.
          .refine((entry) => parseAllowListEntry(entry) !== undefined, ALLOW_LIST_ENTRY_HINT),
      )
      .max(1000)
      .optional()
      .describe('IPv4/IPv6 addresses or CIDRs; empty or absent means no restriction'),
    monthlyWriteQuota: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    rateLimit: z
      .object({
        max: z.number().int().min(1).max(1_000_000),
        windowSeconds: z.number().int().min(1).max(86_400),
      })
      .nullable()
      .optional(),
    dialogueTtlSeconds: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    // --- data lifecycle (D150-D154) ---
    retention: retentionPolicySchema.nullable().optional(),
    // --- end data lifecycle ---
  })
  .strict()
  .meta({ id: 'ProjectSettings' });

export type ProjectSettingsInput = z.infer<typeof projectSettingsSchema>;

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    settings: projectSettingsSchema,
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Project' });

const projectNameSchema = z.string().trim().min(1).max(128);

export const createProjectBody = z
  .object({ name: projectNameSchema, settings: projectSettingsSchema.optional() })
  .strict();
export const updateProjectBody = z
  .object({ name: projectNameSchema.optional(), settings: projectSettingsSchema.optional() })
  .strict();

export const projectIdParams = z.object({ id: z.string().min(1).max(128) });
export const keyParams = z.object({ id: z.string().min(1).max(128), keyId: z.string().min(1).max(128) });

export const createdKeySchema = z.object({
  id: z.string(),
  apiKey: z.string().describe('The key itself: shown once, stored only as a hash'),
});

export const createProjectResponse = z.object({
  project: projectSchema,
  apiKey: z.string().describe('The first key: shown once, stored only as a hash'),
  keyId: z.string().describe('The id of that key, to list or revoke it (D83)'),
});
export const projectListResponse = z.object({ items: z.array(projectSchema) });
export const revokedKeyResponse = z.object({ success: z.boolean(), id: z.string() });

// D83: a key as listed, never the key itself.
const apiKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    created: z.string(),
    lastUsed: z
      .string()
      .nullable()
      .describe('When the key last authenticated a request, refreshed at most once a minute; null: never'),
    revoked: z.string().nullable().describe('When the key was revoked; null: it is active'),
  })
  .meta({ id: 'ApiKey' });
export const apiKeyListResponse = z.object({ items: z.array(apiKeySchema) });

export const revokeKeyByValueBody = z
  .object({ apiKey: z.string().min(1).max(256).describe('The key itself, as the client sends it') })
  .strict();
export const revokedKeyByValueResponse = z.object({
  success: z.boolean(),
  id: z.string(),
  projectId: z.string(),
});

export const usageResponse = z
  .object({
    projectId: z.string(),
    month: z.string().describe('The UTC month counted, YYYY-MM'),
    writes: z.number().int().describe('Write requests counted this month (D44)'),
    monthlyWriteQuota: z.number().int().nullable(),
    remaining: z.number().int().nullable().describe('Writes left this month; null without a quota'),
    resetsAt: z.string().describe('When the count starts again: the first moment of the next UTC month'),
  })
  .meta({ id: 'Usage' });

/** D74: the id again, so that a mistyped or half-pasted request cannot erase a project. */
export const eraseProjectQuery = z.object({
  confirm: z
    .string(coded('INVALID_PARAMETER', 'confirm must repeat the project id'))
    .max(128)
    .describe('The project id again: the erasure cannot be undone'),
});

const rowsPerTable = z
  .record(z.string(), z.number().int())
  .describe('Rows removed per table, `projects` and `api_keys` included');

/** D166: the record of a project's erasure, kept after the project is gone: its receipt. */
export const projectErasureRecordSchema = z
  .object({
    id: z.string(),
    projectId: z.string().describe('The erased project'),
    status: z.enum(['pending', 'completed']).describe('`completed` once nothing of the project is left'),
    counts: z
      .object({ dialogues: z.number().int(), messages: z.number().int(), memories: z.number().int() })
      .describe('The objects erased (threads count as dialogues); final once `completed`'),
    rows: rowsPerTable,
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'ProjectErasureRecord' });

export const projectErasureResponse = z
  .object({
    success: z.boolean().describe('True once nothing of the project is left (`erasure.status` completed)'),
    id: z.string(),
    deleted: rowsPerTable,
    erasure: projectErasureRecordSchema,
  })
  .meta({ id: 'ProjectErasure' });

export const erasureIdParams = z.object({ id: z.string().min(1).max(255) });
