import type { ProjectContext } from '../../core/context.js';
import { dialogueNotFound } from '../../core/errors.js';
import type { Executor } from '../../db/client.js';
import { type DialogueRow, findDialogue, lockDialogue } from './repository.js';

// D34, D46: the namespace rule, in one place. An operation that names a dialogue names it with
// the namespace it lives in (none for a dialogue without one); a wrong or missing namespace, an
// unknown id and another project's dialogue all answer DIALOGUE_NOT_FOUND alike.

/** A dialogue as a request names it. */
export interface DialogueRef {
  id: string;
  namespace: string | null | undefined;
}

function inScope(row: DialogueRow | undefined, ref: DialogueRef): DialogueRow {
  if (!row || row.namespace !== (ref.namespace ?? null)) throw dialogueNotFound(ref.id);
  return row;
}

export interface DialogueScope {
  /**
   * D53: the named dialogue, where the namespace may be left out (the summary routes): a
   * namespace given must be the dialogue's. Read without a lock.
   */
  findGivenNamespace(db: Executor, ctx: ProjectContext, ref: DialogueRef): Promise<DialogueRow>;
  /** The named dialogue, read without a lock. */
  find(db: Executor, ctx: ProjectContext, ref: DialogueRef): Promise<DialogueRow>;
  /** The named dialogue, its row locked until the transaction ends (writers of one dialogue queue). */
  lock(tx: Executor, ctx: ProjectContext, ref: DialogueRef): Promise<DialogueRow>;
}

export const dialogueScope: DialogueScope = {
  findGivenNamespace: async (db, ctx, ref) => {
    const row = await findDialogue(db, ctx.projectId, ref.id);
    return inScope(row, {
      id: ref.id,
      namespace: ref.namespace === undefined ? row?.namespace : ref.namespace,
    });
  },
  find: async (db, ctx, ref) => inScope(await findDialogue(db, ctx.projectId, ref.id), ref),
  lock: async (tx, ctx, ref) => inScope(await lockDialogue(tx, ctx.projectId, ref.id), ref),
};
