import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { ConfigError, type Config, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { asDatabaseMissing } from './db/errors.js';
import { packageVersion } from './lib/package-info.js';
import { projectSettingsSchema } from './modules/projects/schemas.js';
import { retentionPolicySchema } from './modules/retention/schemas.js';
import { readLines } from './modules/transfer/lines.js';
import type { DialogueDbProgress } from './modules/transfer/dialoguedb-import.js';
import { dialogueDbSource } from './modules/transfer/dialoguedb-source.js';
import { createEmbedderFromConfig } from './embedders/factory.js';
import { createLogger } from './observability/logger.js';
import { readWebhookCaFile } from './modules/webhooks/trusted-ca.js';
import { startServer } from './server.js';
import { reindex, startBackgroundWork } from './background.js';
import { hasCitus } from './db/citus.js';
import type { Embedder } from './embedders/embedder.js';
import { eventOutboxFor } from './modules/events/outbox.js';
import { type Metrics, createMetrics } from './observability/metrics.js';
import { type Services, createServices } from './services.js';
import { createSummarizer } from './summarizers/factory.js';

// D10: `parley` manages projects and keys directly in the database, runs migrations and serves.
// With the embedded database, one process at a time may open DATA_DIR: a command refuses to run
// beside a server that holds it, and says what to do instead (src/db/data-dir-lock.ts).

/** A JSON option checked by its zod schema, every problem listed. */
function parseJsonWith<T>(
  schema: { safeParse(value: unknown): z.ZodSafeParseResult<T> },
  what: string,
  value: string,
): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError(`${what} must be a JSON object`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new InvalidArgumentError(
      result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  }
  return result.data;
}

const parseSettings = (value: string) => parseJsonWith(projectSettingsSchema, 'settings', value);
// D151: a retention policy, as in the settings' `retention`.
const parseRetention = (value: string) => parseJsonWith(retentionPolicySchema, 'policy', value);

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Opens the configured database, migrated, for the duration of `fn`. Statements are bounded only
 * for a long-running `worker` (D77); one-shot commands (export, import, reindex) may run long ones.
 */
async function withDatabase<T>(
  config: Config,
  command: string,
  fn: (handle: DatabaseHandle, applied: string[]) => Promise<T>,
  options: { boundStatements?: boolean } = {},
): Promise<T> {
  const handle = await openDatabase({
    owner: { kind: 'command', command },
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

/**
 * The services of a command, wired by services.ts as the server's are; with `embedder` (the
 * worker) embeddings are queued and made, without it none are queued.
 */
async function servicesFor(
  config: Config,
  handle: DatabaseHandle,
  metrics: Metrics = createMetrics({ database: handle }),
  embedder?: Embedder,
): Promise<Services> {
  const logger = createLogger(config);
  return createServices({
    config,
    database: handle,
    distributed: await hasCitus(handle.db),
    embedder,
    summarizer: createSummarizer(config),
    outbox: eventOutboxFor(handle),
    logger,
    metrics,
  });
}

export function buildCli(config: () => Config): Command {
  /** The words after `parley` of the command being run (`project create`), recorded in DATA_DIR's lock. */
  let runningCommand = '';
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
  const withOpenDatabase = <T>(
    cfg: Config,
    fn: (handle: DatabaseHandle, applied: string[]) => Promise<T>,
    options?: { boundStatements?: boolean },
  ) => withDatabase(cfg, runningCommand, fn, options);

  const withProjects = <T>(fn: (projects: Services['projects']) => Promise<T>) =>
    withOpenDatabase(config(), async (handle) => fn((await servicesFor(config(), handle)).projects));

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

  // --- data lifecycle (D150-D154) ---
  const retention = program.command('retention').description("A project's retention policy (D151)");
  retention
    .command('show')
    .argument('<id>', 'project id')
    .description("Show the project's retention policy ({} when none)")
    .action((id: string) =>
      withProjects(async (projects) => print((await projects.getProject(id)).settings.retention ?? {})),
    );
  retention
    .command('set')
    .argument('<id>', 'project id')
    .argument(
      '<policy>',
      'rules to merge into the stored policy, as JSON (null removes a rule)',
      parseRetention,
    )
    .description('Change the retention policy; prints the policy now stored')
    .action((id: string, policy: ReturnType<typeof parseRetention>) =>
      withProjects(async (projects) => {
        const updated = await projects.updateProject(id, { settings: { retention: policy } });
        print(updated.settings.retention ?? {});
      }),
    );
  retention
    .command('preview')
    .argument('<id>', 'project id')
    .option('--policy <json>', 'preview this policy instead of the stored one', parseRetention)
    .description('What the sweeper would delete now: per rule, counts and the oldest and newest dates')
    .action((id: string, options: { policy?: ReturnType<typeof parseRetention> }) =>
      withOpenDatabase(config(), async (handle) =>
        print(await (await servicesFor(config(), handle)).retention.preview(id, options.policy)),
      ),
    );
  // --- end data lifecycle ---
  const namespace = program.command('namespace').description("Manage a project's namespaces");
  namespace
    .command('erase')
    .argument('<projectId>')
    .argument('<namespace>')
    .description(
      'Erase a namespace (D162): every dialogue, message and memory of one end user; cannot be undone',
    )
    .action((projectId: string, name: string) =>
      withOpenDatabase(config(), async (handle) => {
        const { projects, erasures } = await servicesFor(config(), handle);
        const { settings } = await projects.getProject(projectId);
        print(await erasures.eraseNow({ projectId, settings }, name));
      }),
    );

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
      withOpenDatabase(config(), async (_handle, applied) =>
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
      withOpenDatabase(config(), async (handle) => {
        const out = options.out ? createWriteStream(options.out, { flags: 'wx' }) : process.stdout;
        const { transfer } = await servicesFor(config(), handle);
        const counts = await transfer.exportProject(options.project, async (line) => {
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
      withOpenDatabase(config(), async (handle) => {
        const input = options.in ? createReadStream(options.in) : process.stdin;
        const services = await servicesFor(config(), handle);
        const imported = await services.transfer.importProject(options.project, readLines(input));
        // D63: the imported objects' events are numbered now (a running server's streams are woken).
        await services.eventSequencer.settle(options.project);
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
      withOpenDatabase(config(), async (handle) => {
        const cfg = config();
        const services = await servicesFor(cfg, handle);
        const projectId = options.project ?? (await services.projects.ensureDefaultProject()).projectId;
        const progress = progressReporter();
        try {
          const imported = await services.dialogueDbImport.importAccount(
            projectId,
            dialogueDbSource(options.endpoint, options.key),
            progress.update,
          );
          progress.stop();
          // D63: the imported objects' events are numbered now (a running server's streams are woken).
          await services.eventSequencer.settle(projectId);
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
      await withOpenDatabase(
        cfg,
        async (handle) => {
          const metrics = createMetrics({ database: handle });
          const services = await servicesFor(cfg, handle, metrics, embedder);
          // The same background work as a server's (background.ts), with both workers.
          const work = await startBackgroundWork({
            config: cfg,
            database: handle,
            services,
            embedder,
            logger: createLogger(cfg),
            metrics,
            workers: { embeddings: true, webhooks: true },
            webhookCa,
          });
          await new Promise<void>((resolve) => {
            process.once('SIGTERM', resolve);
            process.once('SIGINT', resolve);
          });
          await work.stop();
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
        await withOpenDatabase(cfg, async (handle) => {
          const { queued, embedded } = await reindex(handle, embedder, { queueOnly: options.queueOnly });
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
