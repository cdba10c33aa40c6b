import { z } from 'zod';
import { limitParam } from '../../core/cursor.js';
import { namespaceSchema } from '../../core/fields.js';
import { typeFilter } from '../events/schemas.js';

// D67: the contract of the webhook routes, for validation and OpenAPI alike.

const urlField = z
  .string()
  .min(1)
  .max(2048)
  .describe('https:// URL; must not resolve to a loopback, private, link-local or metadata address (D69)');

const typesField = z
  .array(typeFilter)
  .max(20)
  .describe('Event types to deliver (`message.*` for a resource); empty or absent: every type');

export const createWebhookBody = z
  .object({
    url: urlField,
    types: typesField.optional(),
    namespace: namespaceSchema.optional().describe('Only events of objects in this namespace'),
    description: z.string().max(1024).optional(),
  })
  .strict();

export const updateWebhookBody = z
  .object({
    url: urlField.optional(),
    types: typesField.optional(),
    namespace: namespaceSchema.nullable().optional().describe('null: events of every namespace'),
    enabled: z.boolean().optional().describe('true again after a disable: delivery resumes with new events'),
  })
  .strict();

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookParams = z.object({ id: z.string().min(1).max(255) });

export const webhookSchema = z
  .object({
    id: z.string().meta({ example: 'whk_01jf3c9r0d6e8x2v7m4k5n1p0q' }),
    url: z.string(),
    types: z.array(z.string()),
    namespace: z.string().nullable(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().describe('Why delivery stopped, when Parley disabled it (D68)'),
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().describe('`whsec_` + base64: the signing secret, shown only in this answer (D67)'),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookListResponse = z.object({ items: z.array(webhookSchema) }).meta({ id: 'WebhookList' });

export const deliveryAttemptSchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    type: z.string(),
    seq: z.number().int().nullable().describe('null for a `webhook.test` event'),
    attempt: z.number().int(),
    status: z.enum(['succeeded', 'failed', 'pending']),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    created: z.string().describe('When the attempt was made (or, pending, scheduled)'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const listDeliveriesQuery = z
  .object({
    limit: limitParam(50, 200),
    next: z.string().min(1).max(255).optional().describe('The `next` of the previous page'),
  })
  .strict();

export const deliveryListResponse = z
  .object({
    items: z.array(deliveryAttemptSchema),
    next: z.string().nullable().describe('Pass as `next` for older attempts; null at the end'),
  })
  .meta({ id: 'WebhookDeliveryList' });

export const replayBody = z
  .object({
    after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Re-send the events after this seq'),
  })
  .strict();

export const replayResponse = z
  .object({
    queued: z.number().int().describe('Events queued for delivery'),
    next: z
      .number()
      .int()
      .describe('The last seq considered: pass it as `after` to queue more when the cap of 10,000 was hit'),
  })
  .meta({ id: 'WebhookReplay' });

export const webhookDeletedResponse = z.object({ success: z.boolean(), id: z.string() });
