// Import boundaries of src/ (docs/architecture.md, "Layers and their rule"), checked by
// `npm run lint` with dependency-cruiser: `depcruise src --config .dependency-cruiser.cjs`.
//
//   composition   app.ts  background.ts  services.ts  server.ts  cli.ts
//   transports    http/   mcp/            (mcp may use http; never repositories)
//   domain        modules/*               (only a module's routes.ts may import http/)
//   adapters      db/  embedders/  summarizers/  observability/  config.ts
//   kernel        core/  lib/
//
// Each layer rule lists what a folder MAY import (`to.pathNot`), so that a new folder or file is
// forbidden until someone decides where it sits. Only files in src/ are judged by the layer rules;
// npm packages and node: builtins are not layers.

const SRC = '^src/';
const COMPOSITION = '^src/(app|background|services|server|cli)\\.ts$';
const LIB = '^src/lib/';
const CORE = '^src/core/';
const CONFIG = '^src/config\\.ts$';
const DB = '^src/db/';
const EMBEDDERS = '^src/embedders/';
const SUMMARIZERS = '^src/summarizers/';
const OBSERVABILITY = '^src/observability/';
const MODULES = '^src/modules/';
const HTTP = '^src/http/';
const MCP = '^src/mcp/';
const ROUTES = '^src/modules/[^/]+/routes\\.ts$';
const CLIENT = '^src/client/';
const CLIENT_PACKAGE = '^packages/client/src/';
const REPOSITORIES = 'repository\\.ts$';
// What MCP may take from a module: its service (compaction.ts is the summaries' second service),
// its zod contract and its record shapes. Never SQL, never the REST plugin.
const MODULE_SERVICE_FILES =
  '^src/modules/[^/]+/(service|compaction|schemas|records|[a-z-]+-service|[a-z-]+-schemas)\\.ts$';

/** A layer rule: files under `from` may import, inside src/, only what `allowed` matches. */
function layer(name, comment, from, allowed) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    // Composition files are left to not-to-composition, so that one import is reported once.
    to: { path: SRC, pathNot: [...allowed, COMPOSITION] },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- kernel and adapters -------------------------------------------------------------------
    layer(
      'lib-only-lib',
      'src/lib/ holds generic helpers with no Parley knowledge: it imports only lib.',
      LIB,
      [LIB],
    ),
    layer('core-only-core-lib', 'src/core/ is the shared kernel: it imports only core and lib.', CORE, [
      CORE,
      LIB,
    ]),
    layer('config-only-lib', 'src/config.ts parses the environment: it imports only lib.', CONFIG, [
      CONFIG,
      LIB,
    ]),
    layer(
      'db-only-db-core-lib-config',
      'src/db/ (schema, client, unit of work, idempotency store) imports only db, core, lib and config.',
      DB,
      [DB, CORE, LIB, CONFIG],
    ),
    layer(
      'providers-only-kernel-config-db',
      'Embedders and summarizers are providers: they import core, lib, config and db types only ' +
        '(never modules, http, mcp or the composition files).',
      `${EMBEDDERS}|${SUMMARIZERS}`,
      [EMBEDDERS, SUMMARIZERS, CORE, LIB, CONFIG, DB],
    ),
    layer(
      'client-only-client',
      'src/client/ re-exports the client package @parley/client: it imports no server code.',
      CLIENT,
      [CLIENT],
    ),
    // ---- the client package (packages/client, installed without the server) -----------------------
    {
      name: 'client-package-alone',
      comment:
        '@parley/client imports only itself, openapi-fetch (its one dependency) and, in its adapters, ' +
        'the frameworks it names as optional peer dependencies: never the server.',
      severity: 'error',
      from: { path: CLIENT_PACKAGE },
      to: {
        pathNot: [
          CLIENT_PACKAGE,
          'node_modules/(openapi-fetch|ai|@langchain/core|@langchain/langgraph-checkpoint|@openai/agents)/',
        ],
      },
    },
    {
      name: 'client-package-portable',
      comment: 'The client runs in Node, Bun, Deno and browsers: it imports no Node built-in module.',
      severity: 'error',
      from: { path: CLIENT_PACKAGE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'client-package-main-path-frameworkless',
      comment: 'Importing @parley/client loads no framework; only the adapter entry points do.',
      severity: 'error',
      from: { path: '^packages/client/src/(index|event-stream|schema)\\.ts$' },
      to: { path: 'node_modules/(ai|@langchain|@openai)/' },
    },
    {
      name: 'nothing-to-client',
      comment: 'The server never uses the client; only tests and scripts do.',
      severity: 'error',
      from: { path: SRC, pathNot: CLIENT },
      to: { path: CLIENT },
    },
    {
      name: 'providers-db-types-only',
      comment: 'Embedders and summarizers may name db types, but never run database code themselves.',
      severity: 'error',
      from: { path: `${EMBEDDERS}|${SUMMARIZERS}` },
      to: { path: DB, dependencyTypesNot: ['type-only', 'pre-compilation-only'] },
    },
    layer(
      'observability-only-adapters',
      'src/observability/ (logger, metrics registry) imports only lib, core, db and config.',
      OBSERVABILITY,
      [OBSERVABILITY, LIB, CORE, DB, CONFIG],
    ),

    // ---- domain --------------------------------------------------------------------------------
    layer(
      'modules-not-upwards',
      'A module imports the kernel, the adapters and other modules; never mcp/ nor the composition ' +
        'files (app.ts, services.ts, server.ts, cli.ts). A service cannot know who called it.',
      MODULES,
      [MODULES, CORE, LIB, DB, CONFIG, EMBEDDERS, SUMMARIZERS, OBSERVABILITY, HTTP],
    ),
    {
      name: 'module-owns-its-repository',
      comment:
        "A module owns its tables: another module reaches them through the owner's service or a " +
        'named SQL-fragment file the owner publishes (such as messages/record-sql.ts), never by ' +
        "importing the owner's repository (repository.ts or *-repository.ts).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/[a-z-]*repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'only-routes-import-http',
      comment:
        "Only a module's routes.ts (its Fastify plugin) may import src/http/: services, schemas, " +
        'records and repositories are shared with MCP and must not know HTTP.',
      severity: 'error',
      from: { path: MODULES, pathNot: ROUTES },
      to: { path: HTTP },
    },
    {
      name: 'domain-knows-no-fastify',
      comment:
        "Only a module's routes.ts knows Fastify: a service, repository or record file never imports " +
        'it, so no domain function can be handed a reply (D85: staged writes return their steps instead).',
      severity: 'error',
      from: { path: MODULES, pathNot: ROUTES },
      to: { path: 'node_modules/(fastify|fastify-type-provider-zod|@fastify/[^/]+)/' },
    },
    {
      name: 'tables-in-repositories',
      comment:
        'Only repositories (repository.ts, *-repository.ts) and published SQL fragments (*-sql.ts) ' +
        'use the Drizzle tables of src/db/schema.ts; a service or worker may name their row types only.',
      severity: 'error',
      from: { path: MODULES, pathNot: '(repository|-sql)\\.ts$' },
      to: { path: '^src/db/schema\\.ts$', dependencyTypesNot: ['type-only', 'pre-compilation-only'] },
    },
    {
      name: 'capabilities-handed-in',
      comment:
        "A service reaches another module's data only through what it is handed: the dialogue scope, " +
        "the dialogues' summary slot and the outbox are wired by services.ts, never imported as values " +
        'by another module (their types may be named).',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/(scope|summary-slot|outbox)\\.ts$',
        pathNot: '^src/modules/$1/',
        dependencyTypesNot: ['type-only', 'pre-compilation-only'],
      },
    },
    {
      name: 'stored-responses-handed-in',
      comment:
        'The idempotency store is handed to the deleting services as `storedResponses` (D73) by ' +
        'services.ts; a module names its type only.',
      severity: 'error',
      from: { path: MODULES },
      to: {
        path: '^src/db/idempotency-store\\.ts$',
        dependencyTypesNot: ['type-only', 'pre-compilation-only'],
      },
    },
    {
      name: 'routes-only-from-app',
      comment: "A module's routes.ts is a Fastify plugin registered by app.ts; nothing else imports it.",
      severity: 'error',
      from: { pathNot: '^src/app\\.ts$' },
      to: { path: ROUTES },
    },

    // ---- transports ----------------------------------------------------------------------------
    layer(
      'http-not-to-mcp-or-composition',
      'src/http/ is Fastify glue below the transports: it never imports src/mcp/ nor the composition files.',
      HTTP,
      [HTTP, CORE, LIB, DB, CONFIG, OBSERVABILITY, EMBEDDERS, SUMMARIZERS, MODULES],
    ),
    {
      name: 'http-not-to-repositories',
      comment: 'src/http/ reaches modules through their services, schemas and types, never their SQL.',
      severity: 'error',
      from: { path: HTTP },
      to: { path: `${MODULES}.*${REPOSITORIES}` },
    },
    layer(
      'mcp-only-allowed-layers',
      'src/mcp/ goes through the services: it imports core, lib, http, config, observability, db ' +
        'types and the unit of work, and from modules only their service, schema and record files.',
      MCP,
      [MCP, CORE, LIB, HTTP, CONFIG, OBSERVABILITY, DB, MODULES],
    ),
    {
      name: 'mcp-not-to-repositories',
      comment: 'MCP goes through services exactly as REST does; it never reaches a repository.',
      severity: 'error',
      from: { path: MCP },
      to: { path: REPOSITORIES },
    },
    {
      name: 'mcp-modules-only-services',
      comment:
        'From a module MCP imports only its services, schemas and records (service.ts, *-service.ts, ' +
        'compaction.ts, schemas.ts, *-schemas.ts, records.ts): never ' +
        'routes.ts (REST) nor internals such as append.ts or scope.ts.',
      severity: 'error',
      from: { path: MCP },
      // Repositories and routes.ts have their own rules (mcp-not-to-repositories,
      // routes-only-from-app), so that one import is reported once.
      to: { path: MODULES, pathNot: [MODULE_SERVICE_FILES, REPOSITORIES, ROUTES] },
    },
    {
      name: 'mcp-db-types-and-unit-of-work-only',
      comment:
        'From src/db/ MCP imports the unit of work (unit-of-work.ts) and the types of client.ts; ' +
        'nothing else, and no code from client.ts.',
      severity: 'error',
      from: { path: MCP },
      to: { path: DB, pathNot: ['^src/db/unit-of-work\\.ts$', '^src/db/client\\.ts$'] },
    },
    {
      name: 'mcp-db-client-types-only',
      comment: 'MCP may name the types of src/db/client.ts, never open or query a database itself.',
      severity: 'error',
      from: { path: MCP },
      to: { path: '^src/db/client\\.ts$', dependencyTypesNot: ['type-only', 'pre-compilation-only'] },
    },

    // ---- composition ---------------------------------------------------------------------------
    {
      name: 'not-to-composition',
      comment:
        'app.ts, services.ts, server.ts and cli.ts wire everything together; nothing in src imports ' +
        'them except each other (downwards: cli -> server -> app -> services).',
      severity: 'error',
      from: { path: SRC, pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: 'composition-downwards',
      comment:
        'Composition goes cli.ts -> server.ts -> app.ts -> services.ts: `parley serve` starts the ' +
        'server, the server builds the app, the app wires the services; never the other way.',
      severity: 'error',
      from: { path: '^src/(services|background|app|server)\\.ts$' },
      to: { path: '^src/cli\\.ts$' },
    },
    {
      name: 'cli-background-through-composition',
      comment:
        '`parley worker` runs the background work through src/background.ts, the one place that ' +
        'starts it for the server too: cli.ts never imports a worker, the sequencer, the event hub, ' +
        'the upkeep or a pruner itself (a second copy of the wiring drifts).',
      severity: 'error',
      from: { path: '^src/cli\\.ts$' },
      to: {
        path: '(^src/modules/[^/]+/(worker|sequencer|hub|upkeep)|^src/db/idempotency-pruner)\\.ts$',
      },
    },
    {
      name: 'background-from-entries',
      comment: 'src/background.ts is started by app.ts (the server) and cli.ts (`parley worker`) only.',
      severity: 'error',
      from: { path: SRC, pathNot: '^src/(app|cli)\\.ts$' },
      to: { path: '^src/background\\.ts$' },
    },
    {
      name: 'composition-downwards-server',
      comment: 'See composition-downwards: app.ts and services.ts never import server.ts.',
      severity: 'error',
      from: { path: '^src/(services|background|app)\\.ts$' },
      to: { path: '^src/server\\.ts$' },
    },
    {
      name: 'composition-downwards-app',
      comment: 'See composition-downwards: services.ts and background.ts never import app.ts.',
      severity: 'error',
      from: { path: '^src/(services|background)\\.ts$' },
      to: { path: '^src/app\\.ts$' },
    },

    // ---- whole tree ----------------------------------------------------------------------------
    {
      name: 'src-not-to-outside',
      comment: 'bench/, scripts/, test/ and bin/ may import src/; src/ never imports them.',
      severity: 'error',
      from: { path: SRC },
      to: { path: '^(bench|scripts|test|bin)/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles in src/, type-only imports included (see tsPreCompilationDeps below): ' +
        'break a cycle by moving the shared piece down a layer or by passing it in.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'not-outside-repository',
      comment:
        'Code imports only files of this repository and its packages: nothing beside it (such as a ' +
        '../shared folder a build machine may have), which a clone does not have.',
      severity: 'error',
      from: {},
      to: { path: '^\\.\\./' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file: a typo, or a package missing from package.json.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      comment: 'src/ imports a package that is not in package.json "dependencies".',
      severity: 'error',
      from: { path: SRC },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dep',
      comment:
        'src/ runs in production, where devDependencies are not installed (the image runs ' +
        '`npm ci --omit=dev`): a package src/ loads belongs in "dependencies".',
      severity: 'error',
      from: { path: SRC },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only', 'pre-compilation-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Resolve `./x.js` specifiers to `./x.ts` the way tsc does (module NodeNext).
    tsConfig: { fileName: 'tsconfig.json' },
    // Type imports count. With false, dependency-cruiser would see only what survives compilation
    // to JavaScript, and a type import is coupling all the same: mcp naming a type that
    // services.ts defines ties mcp to composition. 'specify' (rather than true) also marks an
    // import whose names are all used as types only, `import { Executor }` as much as
    // `import type { Executor }`, so the rules about running code (providers-db-types-only,
    // mcp-db-client-types-only, not-to-dev-dep) can let both through with
    // `dependencyTypesNot: ['type-only', 'pre-compilation-only']`. (`import { type X }` is not
    // marked: write `import type` there.) Every other rule, no-circular included, judges type
    // imports like any other: src/ has no cycle even counting them (dialogues and messages import
    // each other's files, but not in a loop: dialogues/service -> messages/{service,append} ->
    // dialogues/{scope,records,rules}), and a type cycle between two modules is a design knot worth
    // untying even though it vanishes at run time.
    tsPreCompilationDeps: 'specify',
    // Resolve package subpaths through their package.json "exports" (e.g.
    // @modelcontextprotocol/sdk/types.js), with the conditions Node uses.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
