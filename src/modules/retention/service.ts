import type { ProjectContext, ProjectSettings, RetentionPolicy } from '../../core/context.js';
import { projectNotFound } from '../../core/errors.js';
import type { Database, Executor } from '../../db/client.js';
import {
  RETENTION_BATCH_ROWS,
  type RetentionSpan,
  type RuleRows,
  trySweeperLock,
} from '../../db/retention-sql.js';
import type { DialogueService } from '../dialogues/service.js';
import type { Sequencer } from '../events/sequencer.js';
import type { DeletionReason } from '../events/records.js';
import type { MemoryService } from '../memories/service.js';
import type { MessageService } from '../messages/service.js';
import type { ProjectService } from '../projects/service.js';
import { type RuleSet, cutoffOf, mergeRetention, ruleSetsOf } from './policy.js';
import type { RetentionPolicyInput, RetentionPreview } from './schemas.js';

// D150-D154: deletion by policy and by expiry. Each rule is a task: find the next batch of what
// it covers, and erase each object through its module's own erasure (the same code as a client's
// delete, D73), with an event whose data says why (D153). The preview reads the same conditions.

type DeletedObject = 'message' | 'dialogue' | 'memory';

const TOTAL_KEY = { message: 'messages', dialogue: 'dialogues', memory: 'memories' } as const;

/** One rule applied: what it covers, how to find the next batch, how to erase one. */
interface Task {
  object: DeletedObject;
  reason: DeletionReason;
  namespace: string | null;
  days: number | null;
  measuredBy: 'created' | 'modified' | 'expiresAt';
  span(db: Executor): Promise<RetentionSpan>;
  /** Erases up to `limit` objects; how many it erased. */
  sweep(tx: Executor, limit: number): Promise<number>;
}

export interface RetentionServiceDeps {
  /** The primary: each batch is a transaction of its own (D154). */
  db: Database;
  projects: Pick<ProjectService, 'listProjects' | 'settingsOf'>;
  dialogues: Pick<DialogueService, 'retire' | 'expiredRows' | 'idleRows'>;
  messages: Pick<MessageService, 'retire' | 'oldRows'>;
  memories: Pick<MemoryService, 'retire' | 'expiredRows' | 'staleRows'>;
  /** D63: a batch's events are numbered after its commit, as a request's are. */
  sequencer: Pick<Sequencer, 'settle'>;
  /** Told what each committed batch erased (the metrics count it, docs/metrics.md). */
  onErased?: (object: DeletedObject, reason: DeletionReason, count: number) => void;
  /** The clock the ages are measured by; tests move it. */
  now?: () => number;
}

/** A rule as a task: its rows' span, and batches of them erased one by one with `retire`. */
function taskOf<Row>(
  rule: Omit<Task, 'span' | 'sweep'>,
  rows: RuleRows<Row>,
  retire: (tx: Executor, row: Row) => Promise<boolean>,
): Task {
  return {
    ...rule,
    span: (db) => rows.span(db),
    async sweep(tx, limit) {
      let erased = 0;
      // Counts those still there: a row erased since it was found is not counted twice.
      for (const row of await rows.next(tx, limit)) if (await retire(tx, row)) erased++;
      return erased;
    },
  };
}

export function createRetentionService(deps: RetentionServiceDeps) {
  const { db, dialogues, messages, memories, now = Date.now } = deps;

  /** D150, D151: the tasks of a project in sweep order: expiry first, then each rule set's rules. */
  function tasksOf(ctx: ProjectContext, policy: RetentionPolicy | undefined, at: number): Task[] {
    const { projectId } = ctx;
    const expired = {
      reason: 'expired' as const,
      namespace: null,
      days: null,
      measuredBy: 'expiresAt' as const,
    };
    const tasks = [
      taskOf({ ...expired, object: 'dialogue' }, dialogues.expiredRows(projectId), (tx, id) =>
        dialogues.retire(tx, projectId, id, 'expired'),
      ),
      taskOf({ ...expired, object: 'memory' }, memories.expiredRows(projectId), (tx, id) =>
        memories.retire(tx, projectId, id, 'expired'),
      ),
    ];
    for (const set of policy ? ruleSetsOf(policy) : []) tasks.push(...ruleTasks(ctx, set, at));
    return tasks;
  }

  function ruleTasks(ctx: ProjectContext, { namespace, scope, rules }: RuleSet, at: number): Task[] {
    const { projectId } = ctx;
    const tasks: Task[] = [];
    const common = { reason: 'retention' as const, namespace };
    const idleBefore =
      rules.idleDialogueDays === undefined ? undefined : cutoffOf(rules.idleDialogueDays, at);
    if (rules.idleDialogueDays !== undefined && idleBefore !== undefined) {
      tasks.push(
        taskOf(
          { ...common, object: 'dialogue', days: rules.idleDialogueDays, measuredBy: 'modified' },
          dialogues.idleRows(projectId, scope, idleBefore),
          (tx, id) => dialogues.retire(tx, projectId, id, 'retention'),
        ),
      );
    }
    if (rules.messageDays !== undefined) {
      // A message of a dialogue the idle rule erases whole is that rule's (D151).
      const rule = { scope, before: cutoffOf(rules.messageDays, at), idleBefore };
      tasks.push(
        taskOf(
          { ...common, object: 'message', days: rules.messageDays, measuredBy: 'created' },
          messages.oldRows(projectId, rule),
          (tx, message) => messages.retire(tx, ctx, message, 'retention'),
        ),
      );
    }
    if (rules.memoryDays !== undefined) {
      tasks.push(
        taskOf(
          { ...common, object: 'memory', days: rules.memoryDays, measuredBy: 'modified' },
          memories.staleRows(projectId, scope, cutoffOf(rules.memoryDays, at)),
          (tx, id) => memories.retire(tx, projectId, id, 'retention'),
        ),
      );
    }
    return tasks;
  }

  /**
   * D154: one batch: under the project's sweeper lock, the first task that finds anything erases
   * up to RETENTION_BATCH_ROWS objects, in one short transaction. Undefined when another instance
   * holds the lock; 0 when nothing is left to erase.
   */
  async function sweepBatch(settings: ProjectSettings, projectId: string): Promise<number | undefined> {
    const ctx = { projectId, settings };
    const outcome = await db.transaction(async (tx) => {
      if (!(await trySweeperLock(tx, projectId))) return undefined;
      for (const task of tasksOf(ctx, settings.retention, now())) {
        const erased = await task.sweep(tx, RETENTION_BATCH_ROWS);
        if (erased > 0) return { task, erased };
      }
      return { task: undefined, erased: 0 };
    });
    if (outcome?.task) {
      deps.onErased?.(outcome.task.object, outcome.task.reason, outcome.erased);
      await deps.sequencer.settle(projectId);
    }
    return outcome?.erased;
  }

  return {
    /**
     * D154: erases what the project's expiries and policy cover, batch after batch, until nothing
     * is left or `shouldStop` says so; how many objects it erased. Skips the project when another
     * instance is sweeping it.
     */
    async sweepProject(projectId: string, shouldStop: () => boolean = () => false): Promise<number> {
      const settings = await deps.projects.settingsOf(projectId);
      if (!settings) return 0;
      let total = 0;
      while (!shouldStop()) {
        const erased = await sweepBatch(settings, projectId);
        if (!erased) break;
        total += erased;
      }
      return total;
    },

    /** Every project's sweep, one after the other. */
    async sweepAll(shouldStop: () => boolean = () => false): Promise<number> {
      let total = 0;
      for (const project of await deps.projects.listProjects()) {
        if (shouldStop()) break;
        total += await this.sweepProject(project.id, shouldStop);
      }
      return total;
    },

    /**
     * D151: what the sweep would erase now under `policy` (the stored policy when absent): per
     * rule, how many objects and the earliest and latest of the times the rule reads.
     */
    async preview(projectId: string, proposed?: RetentionPolicyInput): Promise<RetentionPreview> {
      const settings = await deps.projects.settingsOf(projectId);
      if (!settings) throw projectNotFound(projectId);
      // A proposed policy is read as stored from scratch (its null rules are absent).
      const chosen: RetentionPolicy =
        (proposed === undefined ? settings.retention : mergeRetention(undefined, proposed)) ?? {};
      const at = now();
      const tasks = tasksOf({ projectId, settings }, chosen, at);
      const total = { messages: 0, dialogues: 0, memories: 0 };
      const rules = [];
      for (const task of tasks) {
        const span = await task.span(db);
        total[TOTAL_KEY[task.object]] += span.count;
        rules.push({
          object: task.object,
          reason: task.reason,
          namespace: task.namespace,
          days: task.days,
          measuredBy: task.measuredBy,
          count: span.count,
          oldest: span.oldest?.toISOString() ?? null,
          newest: span.newest?.toISOString() ?? null,
        });
      }
      return { projectId, at: new Date(at).toISOString(), policy: chosen, rules, total };
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
