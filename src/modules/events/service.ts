import type { ProjectContext } from '../../core/context.js';
import { eventsExpired } from '../../core/errors.js';
import type { Executor } from '../../db/client.js';
import { type FollowOptions, createStreamFanout } from './fanout.js';
import type { EventHub } from './hub.js';
import { RawJson } from '../../core/raw-json.js';
import { erasingEventsOf } from '../erasures/erasing-sql.js';
import { type EventRecord, erasingEventData, toEventRecord } from './records.js';
import * as repo from './repository.js';
import type { ListEventsQuery } from './schemas.js';
import type { Sequencer } from './sequencer.js';

// Reading the feed (D65, D71) and following it (D66). Reads go to the primary: the feed is read
// just after it is numbered, which a replica may not have applied yet.

export interface EventServiceDeps {
  db: Executor;
  sequencer: Pick<Sequencer, 'settle'>;
  hub: Pick<EventHub, 'subscribe'>;
}

export interface EventFilterInput {
  type?: string | string[];
  dialogueId?: string;
  namespace?: string;
}

/** Events one read of a stream takes at most before it writes them out. */
const STREAM_PAGE = 500;

function toFilter(input: EventFilterInput): repo.EventFilter {
  const given = input.type === undefined ? [] : [input.type].flat();
  return {
    types: given.filter((type) => !type.endsWith('.*')),
    prefixes: given.filter((type) => type.endsWith('.*')).map((type) => type.slice(0, -1)),
    dialogueId: input.dialogueId,
    namespace: input.namespace,
  };
}

export function createEventService({ db, sequencer, hub }: EventServiceDeps) {
  const fanout = createStreamFanout({ hub, pageSize: STREAM_PAGE });

  /** D65: `after` > 0 must not fall before the oldest kept event. */
  async function assertKept(projectId: string, after: number | undefined): Promise<repo.FeedBounds> {
    const bounds = await repo.feedBounds(db, projectId);
    if (after !== undefined && after > 0 && after < bounds.prunedThrough) {
      throw eventsExpired(after, bounds.prunedThrough + 1);
    }
    return bounds;
  }

  /**
   * Events of the project after `after`, oldest first: what webhook delivery and every other
   * reader of the outbox use. Only numbered events are read; `settle` the sequencer first to
   * include every committed one.
   */
  async function readAfter(
    projectId: string,
    after: number,
    limit: number,
    filter: EventFilterInput = {},
  ): Promise<EventRecord[]> {
    return read(projectId, after, limit, toFilter(filter));
  }

  /**
   * A page of the feed, as every reader sees it. D168: from the moment a namespace's erasure is
   * requested, its events show the data their deletion will leave, before the erasure reaches them.
   */
  async function read(
    projectId: string,
    after: number,
    limit: number,
    filter: repo.EventFilter,
  ): Promise<EventRecord[]> {
    const page = (await repo.listEvents(db, projectId, after, limit, filter)).map(toEventRecord);
    const erasing = await erasingEventsOf(db, projectId, page);
    return page.map((event) =>
      erasing(event) ? { ...event, data: new RawJson(erasingEventData(event)) } : event,
    );
  }

  return {
    readAfter,

    /** The last seq given in the project, once every event committed before the call is numbered. */
    async lastSeq(projectId: string): Promise<number> {
      await sequencer.settle(projectId);
      return (await repo.feedBounds(db, projectId)).lastSeq;
    },

    /** GET /events (D65), list_events (D71). */
    async list(ctx: ProjectContext, query: ListEventsQuery): Promise<{ items: EventRecord[]; next: number }> {
      // Every event committed before the request is numbered, so it is in the answer (D65: 1 s).
      await sequencer.settle(ctx.projectId);
      const after = query.after ?? 0;
      const items = await readAfter(ctx.projectId, after, query.limit, query);
      // Checked after the read: a pruning between the two cannot go unnoticed.
      await assertKept(ctx.projectId, query.after);
      return { items, next: items.at(-1)?.seq ?? after };
    },

    /**
     * D66: where a stream starts: after the given seq (checked like the feed's), or after the
     * last event numbered so far (the next new event comes first).
     */
    async streamStart(ctx: ProjectContext, after: number | undefined): Promise<number> {
      // Events committed before the request are numbered first: they are not new to it.
      if (after === undefined) await sequencer.settle(ctx.projectId);
      const bounds = await assertKept(ctx.projectId, after);
      return after ?? bounds.lastSeq;
    },

    /**
     * D66: the events after `after`, page after page, then each new one as it is numbered, until
     * `signal` aborts or the hub closes. Between reads it holds no database connection, and
     * streams of the same project and filter share each read of new events (fanout.ts). Throws
     * StreamLagging when its consumer fell more than `backlog` events behind.
     */
    follow(
      ctx: ProjectContext,
      after: number,
      filter: EventFilterInput,
      options: FollowOptions,
    ): AsyncGenerator<EventRecord[]> {
      const feedFilter = toFilter(filter);
      // Streams whose filters select the same events share a tail, whatever the order of the types.
      const key = JSON.stringify([
        ctx.projectId,
        [...new Set(feedFilter.types)].sort(),
        [...new Set(feedFilter.prefixes)].sort(),
        feedFilter.dialogueId ?? null,
        feedFilter.namespace ?? null,
      ]);
      return fanout.follow(
        ctx.projectId,
        key,
        (from: number, limit: number) => read(ctx.projectId, from, limit, feedFilter),
        after,
        options,
      );
    },

    /** Event streams open in this process (D72). */
    get openStreams(): number {
      return fanout.size;
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
