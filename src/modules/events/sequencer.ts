import type { Executor } from '../../db/client.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  NUMBER_BATCH,
  hasUnnumberedEvents,
  numberPendingEvents,
  projectsWithUnnumberedEvents,
} from './repository.js';

// D63: events are written without a number and numbered just after their commit, per project, by
// whichever process gets there first: the process that wrote them (told by the unit of work after
// the commit), a reader of the feed (which numbers what is committed before it reads), or the
// sweep every instance runs for events whose writer stopped before numbering them. Numbering runs
// of one project queue on the project's counter row, which no write ever touches, so writers to
// one project never wait for each other here, and no statement spans two projects (Citus, D49).
// Commits that arrive while a run is in hand share the next run: under load, one numbering
// transaction serves many writes.

/** NOTIFY channel: the payload names the project whose events were just numbered (D66 wake-up). */
export const EVENTS_CHANNEL = 'parley_events';

export interface SequencerOptions {
  db: Executor;
  /**
   * The store is a Citus cluster: the NOTIFY then needs a statement of its own, since the
   * numbering runs on the project's worker while the listeners are connected to the coordinator.
   */
  distributed?: boolean;
  /** Told after each numbering commit, with one type per event numbered (metrics, local wake-up). */
  onNumbered?: (projectId: string, types: string[]) => void;
  onError?: (error: unknown) => void;
  /** Waits between numbering passes (COALESCE_MS); tests hand in one they release themselves. */
  pause?: (ms: number) => Promise<void>;
}

export interface Sequencer {
  /** After a commit that wrote events of the project: number them soon (runs are coalesced). */
  schedule(projectId: string): void;
  /**
   * D191: events of the project numbered by their own write were committed: told (`onNumbered`)
   * as a numbering pass tells of the events it numbered.
   */
  announce(projectId: string, types: string[]): void;
  /** Resolves once every event of the project committed before the call has its number. */
  settle(projectId: string): Promise<void>;
  /** Numbers the events of every project that has unnumbered ones (a writer stopped first). */
  sweep(): Promise<void>;
  /**
   * The project a notification on EVENTS_CHANNEL names, or undefined when this sequencer sent it:
   * `onNumbered` has told this process already, and a second wake-up would only read again.
   */
  notifiedProject(payload: string): string | undefined;
}

/**
 * The pause after a numbering pass before the run ends: a write that finds its project idle is
 * numbered at once, and under load a project's passes come at most this often (D66 allows up
 * to 1 s from commit to stream).
 */
const COALESCE_MS = 10;

/** Projects one sweep looks at; the next sweep takes the rest. */
const SWEEP_PROJECTS = 100;

export function createSequencer({
  db,
  distributed = false,
  onNumbered,
  onError,
  pause = (ms) => sleep(ms),
}: SequencerOptions): Sequencer {
  /** Sent with every NOTIFY after the project id, so that this process knows its own. */
  const origin = randomUUID();
  /**
   * The run in progress per project. `again`: a commit arrived after its pass's statement may
   * have been planned; `known`: such a commit wrote events (no look before the next statement).
   * `passes`: passes begun so far. `waiters`: callers waiting for the end of a pass that begins
   * after they asked, so that a settle is never held for as long as writes keep the run going.
   */
  interface Run {
    again: boolean;
    known: boolean;
    passes: number;
    waiters: { pass: number; resolve: () => void; reject: (error: unknown) => void }[];
  }
  const running = new Map<string, Run>();
  /** Per project, the types of events numbered by their writes (D191) not announced yet. */
  const announcing = new Map<string, string[]>();

  const untilPass = (entry: Run, pass: number) =>
    new Promise<void>((resolve, reject) => entry.waiters.push({ pass, resolve, reject }));

  /** One pass: numbers every event committed before it began, a batch at a time. */
  async function numberAll(projectId: string, entry: Run): Promise<boolean> {
    let look = !entry.known;
    entry.again = false;
    entry.known = false;
    let types: string[] = [];
    let numbered = false;
    do {
      // A read first when nobody said there are events (a reader, the sweep): when another
      // run numbered them already, no write transaction is spent on the counter row.
      if (look && !(await hasUnnumberedEvents(db, projectId))) break;
      types = await numberPendingEvents(db, projectId, {
        channel: EVENTS_CHANNEL,
        payload: `${projectId} ${origin}`,
        separate: distributed,
      });
      if (types.length > 0) {
        numbered = true;
        onNumbered?.(projectId, types);
      }
      look = false;
    } while (types.length === NUMBER_BATCH);
    return numbered;
  }

  async function drive(projectId: string, entry: Run): Promise<void> {
    try {
      do {
        const pass = ++entry.passes;
        const numbered = await numberAll(projectId, entry);
        entry.waiters = entry.waiters.filter((waiter) => {
          if (waiter.pass > pass) return true;
          waiter.resolve();
          return false;
        });
        // A pass that numbered events is followed by a pause before the run ends: commits that
        // arrive meanwhile (or arrived during the pass) are numbered by one more pass, so that
        // under load one transaction numbers many writes. Also on PGlite, where no commit can
        // land during a pass, which holds its one connection.
        if (numbered || entry.again) await pause(COALESCE_MS);
      } while (entry.again);
    } catch (error) {
      onError?.(error);
      for (const waiter of entry.waiters) waiter.reject(error);
    } finally {
      running.delete(projectId);
    }
  }

  /** Resolves once a pass that began after the call has ended (it numbered what was committed). */
  function run(projectId: string, known: boolean): Promise<void> {
    const current = running.get(projectId);
    if (current) {
      current.again = true;
      current.known ||= known;
      return untilPass(current, current.passes + 1);
    }
    const entry: Run = { again: false, known, passes: 0, waiters: [] };
    running.set(projectId, entry);
    const settled = untilPass(entry, 1);
    void drive(projectId, entry);
    return settled;
  }

  return {
    schedule(projectId) {
      // A failed pass is reported once, by drive(); a writer does not wait for its numbering.
      run(projectId, true).catch(() => {});
    },
    announce(projectId, types) {
      // Gathered for COALESCE_MS, as a numbering run's passes are: every wake-up costs each open
      // stream of the project a read, and under load one read then serves many writes.
      const waiting = announcing.get(projectId);
      if (waiting) {
        waiting.push(...types);
        return;
      }
      announcing.set(projectId, [...types]);
      void pause(COALESCE_MS).then(() => {
        const gathered = announcing.get(projectId) ?? [];
        announcing.delete(projectId);
        onNumbered?.(projectId, gathered);
      });
    },
    settle: (projectId) => run(projectId, false),
    async sweep() {
      for (const projectId of await projectsWithUnnumberedEvents(db, SWEEP_PROJECTS))
        await run(projectId, false);
    },
    notifiedProject(payload) {
      const [projectId, sender] = payload.split(' ');
      return sender === origin ? undefined : projectId;
    },
  };
}
