import { setTimeout as sleep } from 'node:timers/promises';
import { RawJson, stringifyWithRawJson } from '../../core/raw-json.js';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { PRUNE_BATCH_ROWS } from '../../db/project-batches.js';
import type { Metrics } from '../../observability/metrics.js';
import type { EventHub } from '../events/hub.js';
import type { EventOutbox } from '../events/outbox.js';
import { type EventRecord, erasingEventData } from '../events/records.js';
import { erasingEventsOf } from '../erasures/erasing-sql.js';
import type { EventService } from '../events/service.js';
import * as repo from './repository.js';
import { type Sender, createSender } from './sender.js';
import type { HostLookup } from './url-safety.js';

// D68: the delivery worker, run by every server (WEBHOOK_WORKER) and by `parley worker`. It
// serves the projects woken by the event hub (a numbering on this instance or, through LISTEN, on
// another) and those a periodic look-up finds with work (retries coming due, events numbered
// while no worker ran). For a project it first queues the new events of each enabled endpoint,
// then claims due deliveries (FOR UPDATE SKIP LOCKED, one shard on Citus) and sends them, until
// nothing is due. D90: up to WEBHOOK_CONCURRENCY projects are served at once, each on its own, so
// a receiver that hangs until its time limit delays only its own project. Everything it needs to
// resume is in Postgres.

interface WorkerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What the configuration decides (WEBHOOK_*). */
interface WebhookSettings {
  allowPrivate: boolean;
  /** Time limit of one attempt. */
  timeoutMs: number;
  /** The delay before each retry, given +/- 50 % jitter. */
  retryScheduleMs: readonly number[];
  disableAfterMs: number;
  /** EVENTS_RETENTION_DAYS: finished deliveries and their log are kept as long as the events. */
  retentionDays: number;
  /** WEBHOOK_CONCURRENCY: projects served at the same time (D90). */
  concurrency: number;
}

export const webhookSettings = (config: Config): WebhookSettings => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
  disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
  retentionDays: config.EVENTS_RETENTION_DAYS,
  concurrency: config.WEBHOOK_CONCURRENCY,
});

export interface WebhookWorkerOptions extends WebhookSettings {
  db: Executor;
  events: Pick<EventService, 'readAfter'>;
  outbox: Pick<EventOutbox, 'lockForCopy'>;
  hub: Pick<EventHub, 'watch'>;
  /** Resolves host names (tests control DNS); the address is checked after it either way (D69). */
  lookup?: HostLookup;
  /** WEBHOOK_CA_FILE's certificates (trusted-ca.ts), trusted besides Node's default roots. */
  trustedCa?: string;
  logger?: WorkerLogger;
  metrics?: Pick<Metrics, 'webhookDeliveries' | 'webhookDeliverySeconds'>;
  /** Pause between look-ups for projects with work (retries coming due). */
  pollMs?: number;
  /** Deliveries one claim takes at most; they are sent together. */
  batchSize?: number;
}

export interface WebhookWorker {
  /** Ends the attempts in hand (their deliveries are due again at once), then stops. */
  stop(): Promise<void>;
}

/** Events one queueing read takes at most. */
const QUEUE_PAGE = 500;
/** Longer than an attempt's time limit: a claim outlives its attempt unless its instance died. */
const leaseMsFor = (timeoutMs: number) => timeoutMs * 3 + 5_000;

/** D68: the n-th retry's delay (1-based), +/- 50 % jitter; undefined after the last. */
export function retryDelayMs(
  schedule: readonly number[],
  retry: number,
  random = Math.random,
): number | undefined {
  const base = schedule[retry - 1];
  return base === undefined ? undefined : Math.round(base * (0.5 + random()));
}

const matches = (endpoint: repo.EndpointRow, type: string, namespace: string | null): boolean =>
  (endpoint.namespace === null || endpoint.namespace === namespace) &&
  (endpoint.types.length === 0 ||
    endpoint.types.some((wanted) =>
      wanted.endsWith('.*') ? type.startsWith(wanted.slice(0, -1)) : wanted === type,
    ));

/**
 * D70: the events as their copies are made, with their data read again under a lock in the
 * copying transaction: an erasure committed after the page was read is not undone by the copy.
 */
export async function copiesOf(
  tx: Executor,
  outbox: Pick<EventOutbox, 'lockForCopy'>,
  projectId: string,
  events: EventRecord[],
): Promise<repo.DeliveryEvent[]> {
  const current = await outbox.lockForCopy(
    tx,
    projectId,
    events.map((event) => event.id),
  );
  // D168: a namespace being erased sends what its deletion will leave, as the feed shows it.
  const erasing = await erasingEventsOf(tx, projectId, events);
  return events.flatMap((event) => {
    const data = current.get(event.id);
    if (data === undefined) return [];
    return [{ ...event, data: erasing(event) ? erasingEventData(event) : data }];
  });
}

/** D68: the body is the event record of D63, `data` written verbatim (D28). */
const bodyOf = (delivery: repo.ClaimedDelivery): string =>
  stringifyWithRawJson({
    id: delivery.eventId,
    seq: delivery.seq,
    type: delivery.type,
    created: delivery.eventCreated.toISOString(),
    projectId: delivery.projectId,
    namespace: delivery.namespace,
    dialogueId: delivery.dialogueId,
    objectId: delivery.objectId,
    data: new RawJson(delivery.data),
  });

function secretsOf(endpoint: repo.EndpointRow): string[] {
  const previous =
    endpoint.previousSecret && endpoint.previousSecretExpires && endpoint.previousSecretExpires > new Date()
      ? [endpoint.previousSecret]
      : [];
  return [endpoint.secret, ...previous];
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db } = options;
  const pollMs = options.pollMs ?? 1_000;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = leaseMsFor(options.timeoutMs);
  const sender: Sender = createSender(options);
  const stopping = new AbortController();
  const woken = new Set<string>();
  let wakeAll = true;
  /** Ends the worker's pause early (a wake-up, the stop). */
  let wakeUp: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  const unwatch = options.hub.watch((projectId) => {
    if (projectId === undefined) wakeAll = true;
    else woken.add(projectId);
    wakeUp?.();
  });
  /**
   * Projects found without endpoints since the last poll: a wake-up for one of them is not
   * followed by another look-up until the next poll. Most projects have no endpoint, and under
   * load their events are numbered many times a second. The poll asks the database which
   * projects have work, so an endpoint registered meanwhile (on any instance) is served within
   * a poll.
   */
  const withoutEndpoints = new Set<string>();

  /** Queues, per enabled endpoint, the events after its cursor that its filters keep. */
  async function queueNewEvents(projectId: string, endpoints: repo.EndpointRow[]): Promise<void> {
    for (const endpoint of endpoints) {
      if (!endpoint.enabled) continue;
      let cursor = Number(endpoint.cursorSeq);
      for (;;) {
        const page = await options.events.readAfter(projectId, cursor, QUEUE_PAGE);
        if (page.length === 0) break;
        const to = page.at(-1)!.seq;
        const kept = page.filter((event) => matches(endpoint, event.type, event.namespace));
        const moved = await db.transaction(async (tx) => {
          // Another instance that moved the cursor first queues these events itself.
          if (!(await repo.advanceCursor(tx, projectId, endpoint.id, cursor, to))) return false;
          await repo.queueDeliveries(
            tx,
            projectId,
            endpoint.id,
            await copiesOf(tx, options.outbox, projectId, kept),
          );
          return true;
        });
        if (!moved || page.length < QUEUE_PAGE) break;
        cursor = to;
      }
    }
  }

  async function attempt(delivery: repo.ClaimedDelivery, endpoint: repo.EndpointRow | undefined) {
    const result = await sender.send({
      url: endpoint?.url ?? '',
      eventId: delivery.eventId,
      body: bodyOf(delivery),
      secrets: endpoint ? secretsOf(endpoint) : [],
      signal: stopping.signal,
    });
    if (stopping.signal.aborted && !result.ok) {
      // Cut short by the shutdown: due again at once, for this instance's successor or another.
      await repo.releaseClaim(db, delivery);
      return;
    }
    const retryIn = result.ok ? undefined : retryDelayMs(options.retryScheduleMs, delivery.attempts);
    const { dropped, disabled } = await db.transaction((tx) =>
      repo.recordAttempt(tx, delivery, result, retryIn, options.disableAfterMs),
    );
    const outcome = result.ok ? 'succeeded' : dropped ? 'dropped' : 'failed';
    options.metrics?.webhookDeliveries.inc({ outcome });
    options.metrics?.webhookDeliverySeconds.observe(
      { outcome: result.ok ? 'succeeded' : 'failed' },
      result.durationMs / 1000,
    );
    if (disabled)
      options.logger?.warn({ endpoint: delivery.endpointId }, 'webhook endpoint disabled after failing');
  }

  /**
   * Queues and delivers the project's work until nothing of it is due. `known`: the look-up for
   * projects with work found it (else a wake-up named it, and it may have no endpoint at all).
   */
  async function serveProject(projectId: string, known: boolean): Promise<void> {
    if (!known && withoutEndpoints.has(projectId)) return;
    let endpoints = await repo.listEndpoints(db, projectId);
    if (endpoints.length === 0) {
      withoutEndpoints.add(projectId);
      return;
    }
    await queueNewEvents(projectId, endpoints);
    while (!stopping.signal.aborted) {
      const claimed = await repo.claimDeliveries(db, projectId, batchSize, leaseMs);
      if (claimed.length === 0) return;
      // An endpoint changed since the list (a rotated secret, a new URL) is read again.
      endpoints = await repo.listEndpoints(db, projectId);
      const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
      await Promise.all(claimed.map((delivery) => attempt(delivery, byId.get(delivery.endpointId))));
    }
  }

  /** Pruning runs once a minute, or twice per retention period when that is shorter. */
  const pruneEveryMs = Math.min(
    60_000,
    Math.max(1_000, Math.floor((options.retentionDays * 86_400_000) / 2)),
  );
  let prunedAt = 0;
  async function prune(): Promise<void> {
    if (Date.now() - prunedAt < pruneEveryMs) return;
    while (
      !stopping.signal.aborted &&
      (await repo.pruneDeliveryLog(db, options.retentionDays)) >= PRUNE_BATCH_ROWS
    );
    prunedAt = Date.now();
  }

  /** Projects being served now, each by its own task (D90). */
  const serving = new Map<string, Promise<void>>();
  /** Projects to serve again once a slot frees: woken while being served, or while all were busy. */
  const waiting = new Set<string>();

  function serveInBackground(projectId: string, known: boolean): void {
    const task = serveProject(projectId, known)
      .catch((error: unknown) => {
        // The database may be away for a moment (D77); leases bring claimed deliveries back, and
        // the next look-up finds the project's work again.
        options.logger?.error({ err: error, projectId }, 'webhook worker error');
      })
      .finally(() => {
        serving.delete(projectId);
        for (const waiter of waiting) woken.add(waiter);
        waiting.clear();
        wakeUp?.();
      });
    serving.set(projectId, task);
  }

  const loop = (async () => {
    let lastPoll = 0;
    while (!stopping.signal.aborted) {
      let failed = false;
      const projects = new Set(woken);
      woken.clear();
      const withWork = new Set<string>();
      try {
        await prune();
        if (wakeAll || Date.now() - lastPoll >= pollMs) {
          wakeAll = false;
          lastPoll = Date.now();
          for (const projectId of await repo.projectsWithWork(db, 100)) withWork.add(projectId);
          withoutEndpoints.clear();
        }
      } catch (error) {
        // The database may be away for a moment (D77): the next round tries again.
        options.logger?.error({ err: error }, 'webhook worker error');
        for (const projectId of projects) woken.add(projectId);
        failed = true;
      }
      if (!failed) {
        for (const projectId of new Set([...withWork, ...projects])) {
          if (stopping.signal.aborted) break;
          // A project in hand looks for more work before it ends; one woken meanwhile goes again.
          if (serving.has(projectId) || serving.size >= options.concurrency) waiting.add(projectId);
          else serveInBackground(projectId, withWork.has(projectId));
        }
      }
      if (!failed && (woken.size > 0 || wakeAll || stopping.signal.aborted)) continue;
      if (failed) await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
      else await pause(Math.max(0, pollMs - (Date.now() - lastPoll)));
    }
    await Promise.all(serving.values());
  })();

  return {
    async stop() {
      unwatch();
      stopping.abort();
      wakeUp?.();
      await loop;
      sender.close();
    },
  };
}
