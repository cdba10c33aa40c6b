import type { Executor } from '../../db/client.js';
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

/** NOTIFY channel: the payload is a project id whose events were just numbered (D66 wake-up). */
export const EVENTS_CHANNEL = 'parley_events';

export interface SequencerOptions {
  db: Executor;
  /** Told after each numbering commit, with one type per event numbered (metrics, local wake-up). */
  onNumbered?: (projectId: string, types: string[]) => void;
  onError?: (error: unknown) => void;
}

export interface Sequencer {
  /** After a commit that wrote events of the project: number them soon (runs are coalesced). */
  schedule(projectId: string): void;
  /** Resolves once every event of the project committed before the call has its number. */
  settle(projectId: string): Promise<void>;
  /** Numbers the events of every project that has unnumbered ones (a writer stopped first). */
  sweep(): Promise<void>;
}

/** Projects one sweep looks at; the next sweep takes the rest. */
const SWEEP_PROJECTS = 100;

export function createSequencer({ db, onNumbered, onError }: SequencerOptions): Sequencer {
  /** The run in progress per project, and whether a commit arrived after its snapshot. */
  const running = new Map<string, { again: boolean; done: Promise<void> }>();

  function run(projectId: string): Promise<void> {
    const current = running.get(projectId);
    if (current) {
      // The run's statement may have been planned before this commit: it goes round once more.
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          let types: string[] = [];
          do {
            // A read first: when another run (here or on another instance) numbered them
            // already, no write transaction is spent on the counter row.
            if (!(await hasUnnumberedEvents(db, projectId))) break;
            types = await numberPendingEvents(db, projectId, EVENTS_CHANNEL);
            if (types.length > 0) onNumbered?.(projectId, types);
          } while (types.length === NUMBER_BATCH);
        } while (entry.again);
      } finally {
        running.delete(projectId);
      }
    })();
    running.set(projectId, entry);
    return entry.done;
  }

  return {
    schedule(projectId) {
      run(projectId).catch((error: unknown) => onError?.(error));
    },
    settle: run,
    async sweep() {
      for (const projectId of await projectsWithUnnumberedEvents(db, SWEEP_PROJECTS)) await run(projectId);
    },
  };
}
