import type { Database, DatabaseHandle } from '../../db/client.js';
import type { ProjectContext } from '../../core/context.js';
import type { Embedder } from '../../embedders/embedder.js';
import { indexPrecisionOf } from '../embeddings/vector-sql.js';
import {
  type CandidateRow,
  type QueryVector,
  type SearchScope,
  type SearchTable,
  type TermStats,
  findCandidates,
  findMatches,
  readTermStats,
} from './repository.js';
import { hubVector } from './hub.js';
import type { DialogueScope } from '../dialogues/scope.js';
import {
  type InstantRange,
  type ObjectFilters,
  dateRange,
  echoMetadata,
  echoRange,
  echoTags,
  metadataConditions,
  tagFilter,
} from './filters.js';
import type { AppliedFilter, SearchInput, SearchMode, SearchObject, SearchResult } from './schemas.js';
import {
  type Fusion,
  type Strategy,
  heldWeightLevels,
  lexemeWeights,
  relevance,
  withNeighbours,
} from './scoring.js';

/** A found item's address: message ids are unique within their dialogue (D27). */
interface ItemKey {
  dialogueId: string;
  id: string;
}

const itemKey = (key: ItemKey): string => `${key.dialogueId}\u0000${key.id}`;

type ItemOf<O extends SearchObject> = Extract<SearchResult, { object: O }>['item'];
type Match = Extract<SearchResult, { object: 'dialogue' }>['matches'][number];

/**
 * The records of found items, one query per kind, each loaded by its own module from the read
 * database. Keys come from the search's own candidates; an item deleted meanwhile is absent.
 */
export interface ItemLoaders {
  message(ctx: ProjectContext, keys: ItemKey[]): Promise<ItemOf<'message'>[]>;
  dialogue(ctx: ProjectContext, ids: string[]): Promise<ItemOf<'dialogue'>[]>;
  memory(ctx: ProjectContext, ids: string[]): Promise<ItemOf<'memory'>[]>;
}

export interface SearchServiceDeps {
  /** The read database (a replica when configured). */
  readDb: Database;
  embedder?: Embedder;
  /** The store, whose HNSW index's precision its queries repeat (D172, D175). */
  storeKind: DatabaseHandle['kind'];
  /** The store is a Citus cluster (src/db/citus.ts): a search's settings must reach the worker that runs it. */
  distributed?: boolean;
  /** The namespace rule of a `dialogueId` filter (D34). */
  dialogueScope: Pick<DialogueScope, 'find'>;
  loaders: ItemLoaders;
  /** How the two signals are mixed; the measured default unless the evaluation tries others. */
  fusion?: Fusion;
  /** Logs a failed query embedding (search then answers from full text alone). */
  onEmbedError?: (error: unknown) => void;
  /** D133: SEARCH_EXACT_SCAN_MAX_ROWS; repository.ts's default when absent. */
  exactScanMaxRows?: number;
}

export interface SearchAnswer {
  results: SearchResult[];
  mode: SearchMode;
  request: {
    orderBy: SearchInput['orderBy'];
    order: SearchInput['order'];
    candidateOrderBy: 'relevance';
    filter: AppliedFilter;
  };
}

const TABLE: Record<SearchObject, SearchTable> = {
  message: 'messages',
  dialogue: 'dialogues',
  memory: 'memories',
};

/** D59: a dialogue result carries up to 3 of its best messages. */
const MAX_MATCHES = 3;

interface Scored extends ItemKey {
  relevance: number;
}

const byId = (a: ItemKey, b: ItemKey) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const bestFirst = (a: Scored, b: Scored) => b.relevance - a.relevance || byId(a, b);
const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

/** D59: the filters of the request, normalized once for the SQL and for the echo. */
function normalize(input: SearchInput): { filters: ObjectFilters; applied: AppliedFilter } {
  const range = (field: 'created' | 'modified') => {
    const given = input.filter?.[field];
    return given === undefined ? undefined : dateRange(given, input.timezone);
  };
  const filters: ObjectFilters = {
    tags: tagFilter(input.tag, input.tags),
    metadata: metadataConditions(input.metadata),
    created: range('created'),
    modified: range('modified'),
    hasImage: input.filter?.hasImage,
  };
  const echo = (r: InstantRange | undefined) => (r === undefined ? null : echoRange(r));
  return {
    filters,
    applied: {
      namespace: input.namespace ?? null,
      dialogueId: input.dialogueId ?? null,
      tags: echoTags(filters.tags),
      metadata: echoMetadata(filters.metadata),
      created: echo(filters.created),
      modified: echo(filters.modified),
      hasImage: filters.hasImage ?? null,
    },
  };
}

export function createSearchService(deps: SearchServiceDeps) {
  const { readDb: db, embedder, loaders } = deps;

  async function queryVector(text: string): Promise<{ values: number[]; hub: number[] } | undefined> {
    if (!embedder) return undefined;
    try {
      // The query lane: served before background batches, and cached (src/embedders).
      const [values, hub] = await Promise.all([embedder.embed([text], 'query'), hubVector(embedder)]);
      return { values: values[0]!, hub };
    } catch (error) {
      // D40: the provider never makes search fail; without a query vector the words still match.
      deps.onEmbedError?.(error);
      return undefined;
    }
  }

  function scoreRows(rows: CandidateRow[], stats: TermStats, strategy: Strategy): Scored[] {
    return rows.map((row) => ({
      dialogueId: row.dialogueId,
      id: row.id,
      relevance: relevance(row, stats, strategy, deps.fusion),
    }));
  }

  /** D140: the searched kind's word counts in the scope: the namespace searched, or the project. */
  const statsOf = (scope: SearchScope, table: SearchTable, text: string) =>
    readTermStats(db, { table, projectId: scope.projectId, namespace: scope.namespace, text });

  /** The records of `keys` in their order; one deleted between the two queries is left out. */
  function inOrder<T>(keys: Scored[], items: T[], keyOf: (item: T) => string) {
    const byKey = new Map(items.map((item) => [keyOf(item), item]));
    return keys.flatMap((row) => {
      const item = byKey.get(itemKey(row));
      return item === undefined ? [] : [{ relevance: rounded(row.relevance), item }];
    });
  }

  async function loadResults(
    ctx: ProjectContext,
    object: SearchObject,
    top: Scored[],
    matchesOf: (dialogueId: string) => Match[],
  ): Promise<SearchResult[]> {
    const ids = top.map((row) => row.id);
    switch (object) {
      case 'message':
        return inOrder(top, await loaders.message(ctx, top), itemKey).map((r) => ({ object, ...r }));
      case 'dialogue':
        return inOrder(top, await loaders.dialogue(ctx, ids), (d) =>
          itemKey({ dialogueId: d.id, id: d.id }),
        ).map((r) => ({ object, ...r, matches: matchesOf(r.item.id) }));
      case 'memory':
        return inOrder(top, await loaders.memory(ctx, ids), (m) => itemKey({ dialogueId: '', id: m.id })).map(
          (r) => ({ object, ...r }),
        );
    }
  }

  /**
   * D59: up to 3 of each found dialogue's own best messages, scored as message results are and
   * held to the same threshold; the filters tested the dialogue, not these messages.
   */
  async function dialogueMatches(
    ctx: ProjectContext,
    top: Scored[],
    query: {
      text: string;
      vector: QueryVector;
      stats: TermStats;
      used: Strategy;
      kept: (row: Scored) => boolean;
    },
  ): Promise<Map<string, Match[]>> {
    const matches = new Map<string, Match[]>();
    if (top.length === 0) return matches;
    const rows = await findMatches(db, {
      projectId: ctx.projectId,
      dialogueIds: top.map((row) => row.id),
      text: query.text,
      vector: query.vector,
      lexical: query.used !== 'semantic',
      weights: lexemeWeights(query.stats),
      perDialogue: 2 * MAX_MATCHES,
    });
    const best = scoreRows(rows, query.stats, query.used).filter(query.kept).sort(bestFirst);
    const chosen = top.flatMap((dialogue) =>
      best.filter((row) => row.dialogueId === dialogue.id).slice(0, MAX_MATCHES),
    );
    for (const { relevance: score, item } of inOrder(chosen, await loaders.message(ctx, chosen), itemKey)) {
      const list = matches.get(item.dialogueId) ?? [];
      list.push({ object: 'message', relevance: score, item });
      matches.set(item.dialogueId, list);
    }
    return matches;
  }

  return {
    /**
     * D39-D41, D51, D59. `strategy` forces one signal (the quality evaluation compares them); by
     * default search is hybrid when an embedder is configured and lexical otherwise.
     */
    async search(context: ProjectContext, input: SearchInput, strategy?: Strategy): Promise<SearchAnswer> {
      const { projectId } = context;
      // D51: without a namespace, the whole project; D34 still governs a named dialogue.
      const scope: SearchScope = { projectId, namespace: input.namespace, dialogueId: input.dialogueId };
      if (input.dialogueId !== undefined) {
        await deps.dialogueScope.find(db, context, {
          id: input.dialogueId,
          namespace: input.namespace ?? null,
        });
      }
      const { filters, applied } = normalize(input);

      const wanted: Strategy = strategy ?? (embedder ? 'hybrid' : 'lexical');
      const vectors = wanted === 'lexical' ? undefined : await queryVector(input.query);
      const used: Strategy = vectors ? wanted : 'lexical';
      const vector =
        vectors && embedder
          ? { embedder, precision: indexPrecisionOf(deps.storeKind, embedder), ...vectors }
          : undefined;
      const k = Math.min(200, Math.max(40, input.limit * 4));
      const candidateQuery = {
        scope,
        filters,
        text: input.query,
        vector,
        lexical: used !== 'semantic',
        k,
        exactScanMaxRows: deps.exactScanMaxRows,
        distributed: deps.distributed,
      };

      const table = TABLE[input.object];
      const stats = await statsOf(scope, table, input.query);
      const candidates = await findCandidates(db, {
        ...candidateQuery,
        table,
        weights: lexemeWeights(stats),
        levels: heldWeightLevels(stats),
        wordedRows: stats.documents,
      });
      let scored = scoreRows(candidates, stats, used);
      // D181: a hybrid message search lifts each candidate by its adjacent candidates' relevance.
      if (input.object === 'message' && used === 'hybrid') {
        const previous = candidates.map((row) => row.previousId);
        scored = withNeighbours(
          scored.map((row, i) => ({ ...row, previousId: previous[i]! })),
          deps.fusion,
        ).map(({ previousId: _, ...row }) => row);
      }
      // Messages' counts, for a dialogue search's messages and its matches.
      const messageStats =
        input.object === 'dialogue' ? await statsOf(scope, 'messages', input.query) : undefined;
      if (messageStats) {
        // D41: a dialogue is found by its label, tags and summary, and by its messages' text:
        // each dialogue scores as its best-matching part. The filters name the dialogue's own
        // fields (D59), so messages count only in dialogues that pass them.
        const messageRows = await findCandidates(db, {
          ...candidateQuery,
          filters: { tags: { all: [], any: [], none: [] }, metadata: [] },
          dialogueFilters: filters,
          table: 'messages',
          weights: lexemeWeights(messageStats),
          levels: heldWeightLevels(messageStats),
          wordedRows: messageStats.documents,
          k: k * 3,
        });
        scored = bestPerDialogue([
          ...scored,
          ...scoreRows(messageRows, messageStats, used).map((row) => ({ ...row, id: row.dialogueId })),
        ]);
      }

      // D59: the candidates are the best `limit` by relevance, whatever the order asked for.
      const kept = (row: Scored) => row.relevance > 0 && row.relevance >= input.minRelevance;
      const top = scored.filter(kept).sort(bestFirst).slice(0, input.limit);

      const matches = messageStats
        ? await dialogueMatches(context, top, { text: input.query, vector, stats: messageStats, used, kept })
        : new Map<string, Match[]>();
      const results = await loadResults(context, input.object, top, (id) => matches.get(id) ?? []);
      return {
        results: ordered(results, input.orderBy, input.order),
        mode: used,
        request: {
          orderBy: input.orderBy,
          order: input.order,
          candidateOrderBy: 'relevance',
          filter: applied,
        },
      };
    },
  };
}

/**
 * D59: the page (already the best `limit` by relevance, best first) ordered as asked: by
 * relevance (ascending is the exact reverse) or by the records' own `created` / `modified`, equal
 * values keeping their relevance order.
 */
function ordered(
  results: SearchResult[],
  orderBy: SearchInput['orderBy'],
  order: SearchInput['order'],
): SearchResult[] {
  if (orderBy === 'relevance') return order === 'desc' ? results : [...results].reverse();
  const sign = order === 'asc' ? 1 : -1;
  const value = (result: SearchResult) => (result.item as { created: string; modified: string })[orderBy];
  return results
    .map((result, rank) => ({ result, key: value(result), rank }))
    .sort((a, b) => (a.key < b.key ? -sign : a.key > b.key ? sign : a.rank - b.rank))
    .map(({ result }) => result);
}

function bestPerDialogue(rows: Scored[]): Scored[] {
  const best = new Map<string, Scored>();
  for (const row of rows) {
    const current = best.get(row.id);
    if (!current || row.relevance > current.relevance) best.set(row.id, { ...row, dialogueId: row.id });
  }
  return [...best.values()];
}

export type SearchService = ReturnType<typeof createSearchService>;
