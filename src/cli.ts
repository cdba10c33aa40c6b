import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, type Config, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { asDatabaseMissing } from './db/errors.js';
import { packageVersion } from './lib/package-info.js';
import { projectSettingsSchema } from './modules/projects/schemas.js';
import { createProjectService } from './modules/projects/service.js';
import { readLines } from './modules/transfer/lines.js';
import { type DialogueDbProgress, importDialogueDb } from './modules/transfer/dialoguedb-import.js';
import { dialogueDbSource } from './modules/transfer/dialoguedb-source.js';
import { exportProject, importProject } from './modules/transfer/service.js';
import { eventOutbox } from './modules/events/outbox.js';
import { createEventHub } from './modules/events/hub.js';
import { hasCitus } from './db/citus.js';
import { EVENTS_CHANNEL, createSequencer } from './modules/events/sequencer.js';
import { createEventService } from './modules/events/service.js';
import { startEventUpkeep } from './modules/events/upkeep.js';
import { startIdempotencyPruner } from './db/idempotency-pruner.js';
import { createEmbedderFromConfig } from './embedders/index.js';
import { createLogger } from './observability/logger.js';
import { ensureVectorIndexes } from './modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue, reindexEmbeddings, startEmbeddingWorker } from './modules/embeddings/worker.js';
import { readWebhookCaFile } from './modules/webhooks/trusted-ca.js';
import { startWebhookWorker, webhookSettings } from './modules/webhooks/worker.js';
import { startServer } from './server.js';

// D10: `parley` manages projects and keys directly in the database, runs migrations and serves.
// With the embedded database, one process at a time may open DATA_DIR: a command refuses to run
// beside a server that holds it, and says what to do instead (src/db/data-dir-lock.ts).

function parseSettings(value: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('settings must be a JSON object');
  }
  const result = projectSettingsSchema.safeParse(parsed);
  if (!result.success) {
    throw new InvalidArgumentError(
      result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  }
  return result.data;
}

/** The words after `parley` of the command being run (`project create`), recorded in DATA_DIR's lock. */
let runningCommand = '';

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Opens the configured database, migrated, for the duration of `fn`. Statements are bounded only
 * for a long-running `worker` (D77); one-shot commands (export, import, reindex) may run long ones.
 */
async function withDatabase<T>(
  config: Config,
  fn: (handle: DatabaseHandle, applied: string[]) => Promise<T>,
  options: { boundStatements?: boolean } = {},
): Promise<T> {
  const handle = await openDatabase({
    owner: { kind: 'command', command: runningCommand },
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: 2,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: options.boundStatements ? config.DATABASE_STATEMENT_TIMEOUT_MS : 0,
  });
  try {
    const applied = await runMigrations(handle).catch((error: unknown) =>
      Promise.reject(asDatabaseMissing(error, config.DATABASE_URL) ?? error),
    );
    return await fn(handle, applied);
  } finally {
    await handle.close();
  }
}

/**
 * Progress of `import-dialoguedb` on stderr: a bar on a terminal, one plain line per step
 * otherwise (a log file or a CI job shows no redrawn bar).
 */
function progressReporter(): { update(progress: DialogueDbProgress): void; stop(): void } {
  const describe = (p: DialogueDbProgress) =>
    `dialogues ${p.dialoguesDone}/${p.dialoguesTotal}, messages ${p.messagesDone}/${p.messagesTotal}, memories ${p.memoriesDone}`;
  if (!process.stderr.isTTY) {
    return { update: (p) => process.stderr.write(`${describe(p)}\n`), stop: () => {} };
  }
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'dialogues {bar} {value}/{total} | messages {messages} | memories {memories}',
  });
  let started = false;
  return {
    update(p) {
      const payload = { messages: `${p.messagesDone}/${p.messagesTotal}`, memories: p.memoriesDone };
      if (!started) bar.start(p.dialoguesTotal, p.dialoguesDone, payload);
      else bar.update(p.dialoguesDone, payload);
      started = true;
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

export function buildCli(config: () => Config): Command {
  const program = new Command('parley')
    .description('Parley: conversation storage for AI applications')
    .version(packageVersion)
    .showHelpAfterError()
    .hook('preAction', (_program, action) => {
      const words: string[] = [];
      for (let command: Command | null = action; command?.parent; command = command.parent)
        words.unshift(command.name());
      runningCommand = words.join(' ');
    });

  const withProjects = <T>(fn: (projects: ReturnType<typeof createProjectService>) => Promise<T>) =>
    withDatabase(config(), (handle) => fn(createProjectService({ db: handle.db })));

  const project = program.command('project').description('Manage projects');
  project
    .command('create')
    .argument('<name>', 'project name')
    .option('--settings <json>', 'project settings (D8) as JSON', parseSettings)
    .description('Create a project and print its first API key (shown once)')
    .action((name: string, options: { settings?: ReturnType<typeof parseSettings> }) =>
      withProjects(async (projects) => {
        const { project: created, apiKey, keyId } = await projects.createProject(name, options.settings);
        print({ project: created, apiKey, keyId });
      }),
    );
  project
    .command('list')
    .description('List projects')
    .action(() => withProjects(async (projects) => print({ items: await projects.listProjects() })));
  project
    .command('show')
    .argument('<id>', 'project id')
    .description('Show a project and its settings')
    .action((id: string) => withProjects(async (projects) => print(await projects.getProject(id))));
  project
    .command('set')
    .argument('<id>', 'project id')
    .option('--name <name>', 'new name')
    .option('--settings <json>', 'settings to merge into the stored ones (D8)', parseSettings)
    .description('Rename a project or change its settings')
    .action((id: string, options: { name?: string; settings?: ReturnType<typeof parseSettings> }) =>
      withProjects(async (projects) => print(await projects.updateProject(id, options))),
    );
  project
    .command('delete')
    .argument('<id>', 'project id')
    .description('Erase a project: revoke its keys, then delete all its data (D74); cannot be undone')
    .action((id: string) => withProjects(async (projects) => print(await projects.eraseProject(id))));

  const key = program.command('key').description('Manage API keys');
  key
    .command('create')
    .argument('<projectId>', 'project id')
    .description('Create an API key for a project (shown once)')
    .action((projectId: string) =>
      withProjects(async (projects) => print(await projects.createKey(projectId))),
    );
  key
    .command('list')
    .argument('<projectId>', 'project id')
    .description("List a project's keys (id, prefix, created, lastUsed, revoked), never the keys themselves")
    .action((projectId: string) =>
      withProjects(async (projects) => print({ items: await projects.listKeys(projectId) })),
    );
  // D83: by id within its project, or by the key itself (wherever it belongs).
  key
    .command('revoke')
    .argument('[projectId]', 'project id (with keyId)')
    .argument('[keyId]', 'key id, as `key list` shows it')
    .option('--key <apiKey>', 'the key itself, instead of a project id and key id')
    .description('Revoke an API key at once: `key revoke <projectId> <keyId>` or `key revoke --key <apiKey>`')
    .action((projectId: string | undefined, keyId: string | undefined, { key: value }: { key?: string }) => {
      if (value !== undefined && projectId === undefined)
        return withProjects(async (projects) => print(await projects.revokeKeyByValue(value)));
      if (value === undefined && projectId !== undefined && keyId !== undefined)
        return withProjects(async (projects) => print(await projects.revokeKey(projectId, keyId)));
      throw new InvalidArgumentError('give either <projectId> <keyId>, or --key <apiKey> alone');
    });

  program
    .command('migrate')
    .description('Apply pending database migrations (also done at every start) and print their names')
    .action(() =>
      withDatabase(config(), async (_handle, applied) =>
        print({
          migrated: true,
          applied,
          message:
            applied.length === 0
              ? 'Up to date: no migration to apply'
              : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}`,
        }),
      ),
    );

  program
    .command('export')
    .requiredOption('--project <id>', 'project to export')
    .option('--out <file>', 'file to write (default: standard output)')
    .description('Write a project (dialogues, messages, memories, state, summaries) as JSON Lines')
    .action((options: { project: string; out?: string }) =>
      withDatabase(config(), async (handle) => {
        const out = options.out ? createWriteStream(options.out, { flags: 'wx' }) : process.stdout;
        const counts = await exportProject(handle.db, options.project, async (line) => {
          if (!out.write(line)) await once(out, 'drain');
        });
        if (options.out) {
          out.end();
          await once(out, 'finish');
        }
        // With --out the counts go to stdout; otherwise stdout is the export itself.
        (options.out ? process.stdout : process.stderr).write(`${JSON.stringify({ exported: counts })}\n`);
      }),
    );

  program
    .command('import')
    .requiredOption('--project <id>', 'existing project to import into (may differ from the exported one)')
    .option('--in <file>', 'file to read (default: standard input)')
    .description('Read a `parley export` file into a project, all or nothing, keeping ids and content bytes')
    .action((options: { project: string; in?: string }) =>
      withDatabase(config(), async (handle) => {
        const input = options.in ? createReadStream(options.in) : process.stdin;
        const cfg = config();
        // D79: without an embedder the imported objects are not queued for embedding.
        const queueEmbeddings = cfg.EMBEDDINGS !== 'none';
        const imported = await importProject(handle.db, options.project, readLines(input), {
          queueEmbeddings,
          events: eventOutbox,
        });
        // D63: the imported objects' events are numbered now (a running server's streams are woken).
        await createSequencer({ db: handle.db, distributed: await hasCitus(handle.db) }).settle(
          options.project,
        );
        print({ imported });
      }),
    );

  program
    .command('import-dialoguedb')
    .requiredOption(
      '--endpoint <url>',
      'the DialogueDB endpoint, as given to its client (e.g. https://api.example.com)',
    )
    .requiredOption('--key <key>', 'an API key of the DialogueDB account')
    .option('--project <id>', 'existing project to import into (default: the default project)')
    .description(
      'Copy a whole DialogueDB account (dialogues, threads, messages, memories) into a project over its API, keeping ids and timestamps; run it again to resume',
    )
    .action((options: { endpoint: string; key: string; project?: string }) =>
      withDatabase(config(), async (handle) => {
        const cfg = config();
        const projectId =
          options.project ?? (await createProjectService({ db: handle.db }).ensureDefaultProject()).projectId;
        const progress = progressReporter();
        try {
          const imported = await importDialogueDb(
            handle.db,
            projectId,
            dialogueDbSource(options.endpoint, options.key),
            {
              // D79: without an embedder the imported objects are not queued for embedding.
              queueEmbeddings: cfg.EMBEDDINGS !== 'none',
              events: eventOutbox,
              onProgress: progress.update,
            },
          );
          progress.stop();
          // D63: the imported objects' events are numbered now (a running server's streams are woken).
          await createSequencer({ db: handle.db, distributed: await hasCitus(handle.db) }).settle(projectId);
          print({ project: projectId, imported });
        } finally {
          progress.stop();
        }
      }),
    );

  program
    .command('worker')
    .description(
      'Run the embedding and webhook workers on their own (set EMBEDDING_WORKER=false and WEBHOOK_WORKER=false on the servers)',
    )
    .action(async () => {
      const cfg = config();
      // Before anything starts: an unreadable WEBHOOK_CA_FILE is a configuration error (exit 2).
      const webhookCa = await readWebhookCaFile(cfg);
      // D79: without an embedder there are no embeddings to make; the rest of the work remains.
      const embedder = await createEmbedderFromConfig(cfg);
      await withDatabase(
        cfg,
        async (handle) => {
          const logger = createLogger(cfg);
          let worker: { stop(): Promise<void> } | undefined;
          if (embedder) {
            await ensureVectorIndexes(handle, embedder);
            worker = startEmbeddingWorker({
              db: handle.db,
              embedder,
              logger,
              longRunning: (fn) => handle.withDedicatedConnection(fn),
            });
          }
          // D68: webhook deliveries, woken as the servers' are: by LISTEN on the events channel.
          const hub = createEventHub();
          const sequencer = createSequencer({
            db: handle.db,
            distributed: await hasCitus(handle.db),
            onNumbered: (projectId) => hub.wake(projectId),
          });
          const listening = await handle.listen(EVENTS_CHANNEL, {
            onNotification: (payload) => {
              const projectId = sequencer.notifiedProject(payload);
              if (projectId !== undefined) hub.wake(projectId);
            },
            onListening: () => hub.wakeAll(),
          });
          const webhookWorker = startWebhookWorker({
            ...webhookSettings(cfg),
            db: handle.db,
            events: createEventService({ db: handle.db, sequencer, hub }),
            outbox: eventOutbox,
            hub,
            logger,
            trustedCa: webhookCa,
          });
          // D75: a worker process also deletes expired idempotency records, as the servers do.
          const pruner = startIdempotencyPruner({
            db: handle.db,
            ttlHours: cfg.IDEMPOTENCY_TTL_HOURS,
            logger,
          });
          // D63, D65: and numbers events a stopped writer left, and prunes old events.
          const eventUpkeep = startEventUpkeep({
            db: handle.db,
            sequencer,
            retentionDays: cfg.EVENTS_RETENTION_DAYS,
            sweepIntervalMs: cfg.EVENTS_SWEEP_INTERVAL_MS,
            logger,
          });
          await new Promise<void>((resolve) => {
            process.once('SIGTERM', resolve);
            process.once('SIGINT', resolve);
          });
          // Finishes the batch in hand; unfinished jobs keep their lease and return to the queue.
          await Promise.all([worker?.stop(), webhookWorker.stop(), pruner.stop(), eventUpkeep.stop()]);
          await listening.close();
        },
        { boundStatements: true },
      );
      await embedder?.close();
    });

  program
    .command('reindex')
    .description('Queue everything not embedded by the configured model (D41), then embed it')
    .option('--queue-only', 'only queue the jobs; a running worker embeds them')
    .action(async (options: { queueOnly?: boolean }) => {
      const cfg = config();
      const embedder = await createEmbedderFromConfig(cfg);
      if (!embedder) throw new Error('EMBEDDINGS=none: there is no model to index with');
      try {
        await withDatabase(cfg, async (handle) => {
          await ensureVectorIndexes(handle, embedder);
          const queued = await reindexEmbeddings(handle.db, embedder);
          const embedded = options.queueOnly ? 0 : await drainEmbeddingQueue({ db: handle.db, embedder });
          print({ model: embedder.id, queued, embedded });
        });
      } finally {
        await embedder.close();
      }
    });

  program
    .command('serve')
    .description('Start the HTTP server (same as npm start)')
    .action(() => startServer(config()));

  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli(() => loadConfig()).parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    const message = (error as { message?: string }).message ?? String(error);
    process.stderr.write(`parley: ${message}\n`);
    process.exit(1);
  }
}

await runCli(process.argv);
