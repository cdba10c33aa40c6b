import { randomBytes } from 'node:crypto';
import type { ProjectContext } from '../../core/context.js';
import { tooManyWebhooks, webhookNotFound, webhookUrlRefused } from '../../core/errors.js';
import type { Executor } from '../../db/client.js';
import { type StagedWrite, oneRound } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import type { EventOutbox } from '../events/outbox.js';
import type { EventRecord } from '../events/records.js';
import type { EventService } from '../events/service.js';
import { toAttempt, toWebhook } from './records.js';
import * as repo from './repository.js';
import type { CreateWebhookBody, UpdateWebhookBody } from './schemas.js';
import { type UrlPolicy, refusalOf } from './url-safety.js';
import { copiesOf } from './worker.js';

// D67-D69: the webhook endpoints of a project, their log, test and replay. A method whose work
// needs the network or a read of the feed (the URL's DNS check, the feed's last seq) does it
// first and returns a staged write (src/db/unit-of-work.ts) whose transaction comes after it, so that no transaction
// waits on DNS or holds the only connection of the embedded store.

/** D69. */
const MAX_ENDPOINTS = 20;
/** Events one replay queues at most; its answer's `next` continues. */
const REPLAY_CAP = 10_000;
/** D68: during a rotation the previous secret signs too, this long. */
const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export interface WebhookServiceDeps {
  db: Executor;
  events: Pick<EventService, 'lastSeq' | 'list'>;
  outbox: Pick<EventOutbox, 'lockForCopy'>;
  urlPolicy: UrlPolicy;
}

type Write<T> = (tx: Executor) => Promise<T>;

/** D67: `whsec_` + base64 of 24 random bytes, as Standard Webhooks libraries read it. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function createWebhookService({ db, events, outbox, urlPolicy }: WebhookServiceDeps) {
  async function checkUrl(url: string): Promise<void> {
    const refusal = await refusalOf(url, urlPolicy);
    if (refusal) throw webhookUrlRefused(refusal);
  }

  async function endpointOf(executor: Executor, ctx: ProjectContext, id: string) {
    const row = await repo.findEndpoint(executor, ctx.projectId, id);
    if (!row) throw webhookNotFound(id);
    return row;
  }

  return {
    /** POST /webhooks: delivery starts with the events after the ones committed before it. */
    stageCreate(ctx: ProjectContext, body: CreateWebhookBody): StagedWrite<Write<object>, object> {
      return oneRound(async () => {
        await checkUrl(body.url);
        const cursorSeq = await events.lastSeq(ctx.projectId);
        return async (tx) => {
          if ((await repo.countEndpoints(tx, ctx.projectId)) >= MAX_ENDPOINTS)
            throw tooManyWebhooks(MAX_ENDPOINTS);
          const secret = newSecret();
          const row = await repo.insertEndpoint(tx, {
            projectId: ctx.projectId,
            id: newId('whk'),
            url: body.url,
            types: body.types ?? [],
            namespace: body.namespace ?? null,
            description: body.description ?? null,
            secret,
            cursorSeq,
          });
          return { ...toWebhook(row), secret };
        };
      });
    },

    async list(ctx: ProjectContext) {
      return { items: (await repo.listEndpoints(db, ctx.projectId)).map(toWebhook) };
    },

    async get(ctx: ProjectContext, id: string) {
      return toWebhook(await endpointOf(db, ctx, id));
    },

    /**
     * PATCH: enabling a disabled endpoint starts again after the events committed so far (D67:
     * events of the disabled time are not queued; replay recovers them) and clears its run of
     * failures.
     */
    stageUpdate(
      ctx: ProjectContext,
      id: string,
      body: UpdateWebhookBody,
    ): StagedWrite<Write<object>, object> {
      return oneRound(async () => {
        if (body.url !== undefined) await checkUrl(body.url);
        const cursorSeq = body.enabled ? await events.lastSeq(ctx.projectId) : undefined;
        return async (tx) => {
          const current = await endpointOf(tx, ctx, id);
          const enabling = body.enabled === true && !current.enabled;
          const row = await repo.updateEndpoint(tx, ctx.projectId, id, {
            ...(body.url !== undefined ? { url: body.url } : {}),
            ...(body.types !== undefined ? { types: body.types } : {}),
            ...(body.namespace !== undefined ? { namespace: body.namespace } : {}),
            ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
            ...(enabling ? { cursorSeq, failingSince: null, disabledReason: null } : {}),
          });
          return toWebhook(row!);
        };
      });
    },

    async remove(tx: Executor, ctx: ProjectContext, id: string) {
      if (!(await repo.deleteEndpoint(tx, ctx.projectId, id))) throw webhookNotFound(id);
      return { success: true, id };
    },

    /** D68: the new secret signs from now on; the previous one too, for 24 h. */
    async rotateSecret(tx: Executor, ctx: ProjectContext, id: string) {
      const current = await endpointOf(tx, ctx, id);
      const secret = newSecret();
      const row = await repo.updateEndpoint(tx, ctx.projectId, id, {
        secret,
        previousSecret: current.secret,
        previousSecretExpires: new Date(Date.now() + PREVIOUS_SECRET_MS),
      });
      return { ...toWebhook(row!), secret };
    },

    /** D67: a `webhook.test` event, whatever the endpoint's types (and even while it is disabled). */
    async sendTest(tx: Executor, ctx: ProjectContext, id: string) {
      const endpoint = await endpointOf(tx, ctx, id);
      const eventId = newId('evt');
      const [attempt] = await repo.queueDeliveries(tx, ctx.projectId, id, [
        {
          id: eventId,
          seq: null,
          type: 'webhook.test',
          created: new Date().toISOString(),
          namespace: null,
          dialogueId: null,
          objectId: endpoint.id,
          data: JSON.stringify({ id: endpoint.id, url: endpoint.url, test: true }),
        },
      ]);
      return toAttempt(attempt!);
    },

    /**
     * D67: queues again the events after `after` that the endpoint's filters keep (410
     * EVENTS_EXPIRED when they were pruned), at most REPLAY_CAP of them. The events are read
     * before the transaction; their deliveries are new ones, delivered in order like any other.
     */
    stageReplay(ctx: ProjectContext, id: string, after: number): StagedWrite<Write<object>, object> {
      return oneRound(async () => {
        const endpoint = await endpointOf(db, ctx, id);
        const kept: EventRecord[] = [];
        let cursor = after;
        for (;;) {
          const page = await events.list(ctx, {
            after: cursor,
            limit: 1000,
            ...(endpoint.types.length > 0 ? { type: endpoint.types as never } : {}),
            ...(endpoint.namespace !== null ? { namespace: endpoint.namespace } : {}),
          });
          for (const event of page.items) {
            if (kept.length >= REPLAY_CAP) break;
            kept.push(event);
            cursor = event.seq;
          }
          if (page.items.length < 1000 || kept.length >= REPLAY_CAP) break;
        }
        return async (tx) => {
          await endpointOf(tx, ctx, id);
          const copies = await copiesOf(tx, outbox, ctx.projectId, kept);
          await repo.queueDeliveries(tx, ctx.projectId, id, copies);
          return { queued: copies.length, next: cursor };
        };
      });
    },

    /** D67: the delivery log, newest first. */
    async listDeliveries(ctx: ProjectContext, id: string, query: { limit: number; next?: string }) {
      await endpointOf(db, ctx, id);
      const rows = await repo.listAttempts(db, ctx.projectId, id, query.limit, query.next);
      return {
        items: rows.map(toAttempt),
        next: rows.length === query.limit ? rows.at(-1)!.id : null,
      };
    },
  };
}
