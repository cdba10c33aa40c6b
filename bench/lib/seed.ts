import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { dialogues } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { createProjectService } from '../../src/modules/projects/service.js';

export interface StoreEnv {
  DATABASE_URL?: string;
  DATA_DIR?: string;
}

export interface Seeded {
  projectId: string;
  apiKey: string;
  /** Dialogues that take the write load, spread so that writers do not all queue on one row. */
  writeDialogues: string[];
  /** One dialogue holding `deepMessages` messages. */
  deepDialogue: string;
}

/**
 * Seeds a store before any server opens it: a project with a key, dialogues for writes, and one
 * dialogue with `deepMessages` messages inserted in one statement (1 ms apart, in order).
 */
export async function seedStore(
  store: StoreEnv,
  deepMessages: number,
  writeDialogueCount = 16,
): Promise<Seeded> {
  const handle = await openDatabase({ databaseUrl: store.DATABASE_URL, dataDir: store.DATA_DIR ?? './data' });
  try {
    await runMigrations(handle);
    const { project, apiKey } = await createProjectService({ db: handle.db }).createProject(
      `bench-${Date.now()}`,
    );
    const ids = Array.from({ length: writeDialogueCount + 1 }, () => newId('dlg'));
    await handle.db.insert(dialogues).values(ids.map((id) => ({ projectId: project.id, id })));
    const deepDialogue = ids[writeDialogueCount]!;
    await handle.db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, created, modified)
      SELECT ${project.id}, ${deepDialogue}, 'seed-' || g, 'user', '"seed message number ' || g || '"',
             length('seed message number ' || g), 'seed message number ' || g,
             now() - interval '1 day' + g * interval '1 millisecond', now()
      FROM generate_series(1, ${deepMessages}) AS g`);
    await handle.db.execute(sql`
      UPDATE dialogues SET total_messages = ${deepMessages}, last_message_created = now()
      WHERE project_id = ${project.id} AND id = ${deepDialogue}`);
    await handle.db.execute(sql`ANALYZE messages`);
    return { projectId: project.id, apiKey, writeDialogues: ids.slice(0, writeDialogueCount), deepDialogue };
  } finally {
    await handle.close();
  }
}
