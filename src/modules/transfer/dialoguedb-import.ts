import type { Executor } from '../../db/client.js';
import { messageSearchText } from '../../lib/content-text.js';
import { dialogueSearchText } from '../dialogues/records.js';
import { memorySearchText } from '../memories/records.js';
import type { DialogueDbSource, SourceRecord } from './dialoguedb-source.js';
import { existingIds } from './repository.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './schemas.js';
import type { ProjectService } from '../projects/service.js';
import { TransferError, type TransferService } from './service.js';

// `parley import-dialoguedb` (docs/api-decisions.md, "Moving in from DialogueDB"): a DialogueDB
// account, read over the client's protocol, written into a project by `parley import`'s own write
// path. Each dialogue (with all its messages) is one `importProject` of the export format, so one
// transaction: ids, timestamps, order, state and content kept, created events recorded (D64) and
// embeddings queued (D79) exactly as an import does. A dialogue is in the project completely or not
// at all, so resuming after an interruption only skips the ids the project already holds.

export interface DialogueDbImportCounts {
  dialogues: number;
  messages: number;
  memories: number;
  /** Already in the project (an earlier, interrupted run): left as they are. */
  skippedDialogues: number;
  skippedMemories: number;
}

export interface DialogueDbProgress {
  dialoguesDone: number;
  dialoguesTotal: number;
  messagesDone: number;
  messagesTotal: number;
  memoriesDone: number;
}

const ID_CHUNK = 1000;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

async function* linesOf(body: object[]): AsyncGenerator<string> {
  const counts = { dialogues: 0, messages: 0, memories: 0 };
  yield JSON.stringify({
    type: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    projectId: 'dialoguedb',
    exportedAt: new Date().toISOString(),
  });
  const counted = { dialogue: 'dialogues', message: 'messages', memory: 'memories' } as const;
  for (const line of body) {
    counts[counted[(line as { type: keyof typeof counted }).type]]++;
    yield JSON.stringify(line);
  }
  yield JSON.stringify({ type: 'end', counts });
}

/** D28, D57: content and values go in as JSON text; the API gives them parsed. */
const jsonText = (value: unknown) => JSON.stringify(value);

function dialogueLine(record: SourceRecord, messageCount: number, threadCount: number) {
  const tags = (record.tags as string[] | undefined) ?? [];
  const summary = (record.summary as { text: string } | null | undefined) ?? null;
  return {
    type: 'dialogue',
    id: record.id,
    namespace: str(record.namespace),
    threadOf: str(record.threadOf),
    label: str(record.label),
    // D24: expiry is computed from the target project's settings, never stored.
    status: record.status === 'expired' ? 'active' : record.status,
    tags,
    metadata: record.metadata ?? {},
    state: record.state ?? {},
    summary,
    totalMessages: messageCount,
    threadCount,
    lastMessageCreated: str(record.lastMessageCreated),
    searchText: dialogueSearchText({ label: str(record.label), tags, summary }),
    created: record.created,
    modified: record.modified ?? record.created,
  };
}

function messageLine(dialogue: SourceRecord, message: SourceRecord) {
  const content = jsonText(message.content);
  return {
    type: 'message',
    dialogueId: dialogue.id,
    id: message.id,
    namespace: str(dialogue.namespace),
    role: message.role,
    content,
    contentLength: Buffer.byteLength(typeof message.content === 'string' ? message.content : content, 'utf8'),
    name: str(message.name),
    tags: message.tags ?? [],
    metadata: message.metadata ?? null,
    searchText: messageSearchText(message.content, str(message.name)),
    created: message.created,
    modified: message.modified ?? message.created,
  };
}

function memoryLine(memory: SourceRecord) {
  const label = str(memory.label);
  const description = str(memory.description);
  return {
    type: 'memory',
    id: memory.id,
    namespace: str(memory.namespace),
    label,
    description,
    tags: memory.tags ?? [],
    metadata: memory.metadata ?? null,
    value: jsonText(memory.value),
    searchText: memorySearchText(label, description, memory.value),
    created: memory.created,
    modified: memory.modified ?? memory.created,
  };
}

/** Parents before their threads (a thread's parent must exist when it is linked). */
function parentsFirst(dialogues: SourceRecord[]): SourceRecord[] {
  const byId = new Map(dialogues.map((d) => [d.id as string, d]));
  const ordered: SourceRecord[] = [];
  const placed = new Set<string>();
  const place = (dialogue: SourceRecord, path: Set<string>) => {
    const id = dialogue.id as string;
    if (placed.has(id) || path.has(id)) return;
    path.add(id);
    const parent = byId.get(str(dialogue.threadOf) ?? '');
    if (parent) place(parent, path);
    placed.add(id);
    ordered.push(dialogue);
  };
  for (const dialogue of dialogues) place(dialogue, new Set());
  return ordered;
}

async function existing(db: Executor, projectId: string, table: 'dialogues' | 'memories', ids: string[]) {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    for (const id of await existingIds(db, projectId, table, ids.slice(i, i + ID_CHUNK))) found.add(id);
  }
  return found;
}

/** What the DialogueDB import uses; each dialogue (and each page of memories) is one import (D86). */
export interface DialogueDbImportDeps {
  /** The primary: which ids the project holds already (a second run resumes where one stopped). */
  db: Executor;
  projects: Pick<ProjectService, 'settingsOf'>;
  transfer: Pick<TransferService, 'importProject'>;
}

export function createDialogueDbImportService(deps: DialogueDbImportDeps) {
  return {
    /** Copies a whole DialogueDB account into `projectId`; ids already there are skipped. */
    importAccount: (
      projectId: string,
      source: DialogueDbSource,
      onProgress?: (progress: DialogueDbProgress) => void,
    ) => importAccount(deps, projectId, source, onProgress),
  };
}

async function importAccount(
  { db, projects, transfer }: DialogueDbImportDeps,
  projectId: string,
  source: DialogueDbSource,
  onProgress?: (progress: DialogueDbProgress) => void,
): Promise<DialogueDbImportCounts> {
  if (!(await projects.settingsOf(projectId))) throw new TransferError(`Project ${projectId} does not exist`);
  const counts: DialogueDbImportCounts = {
    dialogues: 0,
    messages: 0,
    memories: 0,
    skippedDialogues: 0,
    skippedMemories: 0,
  };

  const listed: SourceRecord[] = [];
  for await (const dialogue of source.dialogues()) listed.push(dialogue);
  const threadCounts = new Map<string, number>();
  for (const dialogue of listed) {
    const parent = str(dialogue.threadOf);
    if (parent) threadCounts.set(parent, (threadCounts.get(parent) ?? 0) + 1);
  }
  const present = await existing(
    db,
    projectId,
    'dialogues',
    listed.map((d) => d.id as string),
  );
  const progress: DialogueDbProgress = {
    dialoguesDone: 0,
    dialoguesTotal: listed.length,
    messagesDone: 0,
    messagesTotal: listed.reduce((sum, d) => sum + (Number(d.totalMessages) || 0), 0),
    memoriesDone: 0,
  };
  const report = () => onProgress?.({ ...progress });
  report();

  for (const listedDialogue of parentsFirst(listed)) {
    const id = listedDialogue.id as string;
    if (present.has(id)) {
      counts.skippedDialogues++;
    } else {
      const dialogue = await source.dialogue(id, str(listedDialogue.namespace));
      const messages: SourceRecord[] = [];
      for await (const message of source.messages(id, str(dialogue.namespace))) messages.push(message);
      const lines = [
        dialogueLine(dialogue, messages.length, threadCounts.get(id) ?? 0),
        ...messages.map((message) => messageLine(dialogue, message)),
      ];
      const imported = await transfer.importProject(projectId, linesOf(lines));
      counts.dialogues += imported.dialogues;
      counts.messages += imported.messages;
    }
    progress.dialoguesDone++;
    progress.messagesDone += Number(listedDialogue.totalMessages) || 0;
    report();
  }

  for await (const page of source.memories()) {
    const held = await existing(
      db,
      projectId,
      'memories',
      page.map((m) => m.id as string),
    );
    const fresh = page.filter((memory) => !held.has(memory.id as string));
    counts.skippedMemories += page.length - fresh.length;
    if (fresh.length > 0) {
      counts.memories += (await transfer.importProject(projectId, linesOf(fresh.map(memoryLine)))).memories;
    }
    progress.memoriesDone += page.length;
    report();
  }
  return counts;
}
