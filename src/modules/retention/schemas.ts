import { z } from 'zod';
import { namespaceSchema } from '../../core/fields.js';

// D151: the retention policy in a project's settings, and the preview of what it deletes.

/** At most about a century; fractions allowed (0.5 is twelve hours), so that tests can use seconds. */
const daysField = z
  .number()
  .positive()
  .max(36_500)
  .nullable()
  .optional()
  .describe('Days, fractions allowed (0.5 = 12 hours); null removes the rule');

const rulesFields = {
  messageDays: daysField.describe('Messages created more than this many days ago are deleted'),
  idleDialogueDays: daysField.describe('Dialogues unchanged for this many days are deleted whole'),
  memoryDays: daysField.describe('Memories not updated for this many days are deleted'),
};

/** D151: at most this many namespaces with rules of their own. */
const MAX_RETENTION_NAMESPACES = 100;

const namespaceRules = z.object(rulesFields).strict().meta({
  id: 'RetentionRules',
  description: "A namespace's own rules: they replace the project's there (an absent rule deletes nothing)",
});

export const retentionPolicySchema = z
  .object({
    ...rulesFields,
    namespaces: z
      .record(namespaceSchema, namespaceRules.nullable())
      .refine((namespaces) => Object.keys(namespaces).length <= MAX_RETENTION_NAMESPACES, {
        message: `at most ${MAX_RETENTION_NAMESPACES} namespaces`,
      })
      .nullable()
      .optional()
      .describe('Namespaces with rules of their own; null for one removes its rules'),
  })
  .strict()
  .meta({
    id: 'RetentionPolicy',
    description: 'D151: merged into the stored policy; null removes a rule, or the whole policy',
  });

export type RetentionPolicyInput = z.infer<typeof retentionPolicySchema>;

const spanSchema = {
  count: z.number().int(),
  oldest: z.string().nullable().describe('The earliest time among them (see `measuredBy`); null: none'),
  newest: z.string().nullable().describe('The latest time among them; null: none'),
};

const previewRuleSchema = z
  .object({
    object: z.enum(['message', 'dialogue', 'memory']),
    reason: z.enum(['retention', 'expired']),
    namespace: z
      .string()
      .nullable()
      .describe("The namespace whose own rules these are; null: the project's rules (other namespaces)"),
    days: z.number().nullable().describe('The rule; null for expiry'),
    measuredBy: z.enum(['created', 'modified', 'expiresAt']).describe('The time the rule reads'),
    ...spanSchema,
  })
  .meta({ id: 'RetentionPreviewRule' });

export const retentionPreviewSchema = z
  .object({
    projectId: z.string(),
    at: z.string().describe('The moment the ages were measured from'),
    policy: retentionPolicySchema,
    rules: z.array(previewRuleSchema),
    total: z.object({ messages: z.number().int(), dialogues: z.number().int(), memories: z.number().int() }),
  })
  .meta({ id: 'RetentionPreview' });

export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;

export const previewRetentionBody = z.object({ retention: retentionPolicySchema }).strict();
