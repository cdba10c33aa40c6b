import type { Database } from '../../db/client.js';
import type { ProjectContext } from '../../core/context.js';
import type { Embedder } from '../../embedders/embedder.js';
import { type CandidateRow, type SearchFilters, type SearchTable, findCandidates } from './repository.js';
import type { DialogueScope } from '../dialogues/scope.js';
import type { SearchInput, SearchMode, SearchObject, SearchResult } from './schemas.js';
import { type Fusion, type Strategy, relevance } from './scoring.js';

/** A found item's address: message ids are unique within their dialogue (D27). */
interface ItemKey {
  dialogueId: string;
  id: string;
}

const itemKey = (key: ItemKey): string => `${key.dialogueId}\u0000${key.id}`;

type ItemOf<O extends SearchObject> = Extract<SearchResult, { object: O }>['item'];

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
  /** The namespace rule of a `dialogueId` filter (D34). */
  dialogueScope: Pick<DialogueScope, 'find'>;
  loaders: ItemLoaders;
  /** How the two signals are mixed; the measured default unless the evaluation tries others. */
  fusion?: Fusion;
  /** Logs a failed query embedding (search then answers from full text alone). */
  onEmbedError?: (error: unknown) => void;
}

export interface SearchAnswer {
  results: SearchResult[];
  mode: SearchMode;
}

const TABLE: Record<SearchObject, SearchTable> = {
  message: 'messages',
  dialogue: 'dialogues',
  memory: 'memories',
};

interface Scored extends ItemKey {
  relevance: number;
}

export function createSearchService(deps: SearchServiceDeps) {
  const { readDb: db, embedder, loaders } = deps;

  async function queryVector(text: string): Promise<number[] | undefined> {
    if (!embedder) return undefined;
    try {
      return (await embedder.embed([text]))[0];
    } catch (error) {
      // D40: the provider never makes search fail; without a query vector the words still match.
      deps.onEmbedError?.(error);
      return undefined;
    }
  }

  function scoreRows(rows: CandidateRow[], strategy: Strategy): Scored[] {
    return rows.map((row) => ({
      dialogueId: row.dialogueId,
      id: row.id,
      relevance: relevance(row, strategy, deps.fusion),
    }));
  }

  /** The found records in ranking order; one deleted between the two queries is left out. */
  async function loadResults(
    ctx: ProjectContext,
    object: SearchObject,
    top: Scored[],
  ): Promise<SearchResult[]> {
    const rounded = (row: Scored) => Math.round(row.relevance * 1e6) / 1e6;
    const ranked = <T>(items: T[], keyOf: (item: T) => string) => {
      const byKey = new Map(items.map((item) => [keyOf(item), item]));
      return top.flatMap((row) => {
        const item = byKey.get(itemKey(row));
        return item === undefined ? [] : [{ relevance: rounded(row), item }];
      });
    };
    const ids = top.map((row) => row.id);
    switch (object) {
      case 'message':
        return ranked(await loaders.message(ctx, top), itemKey).map((r) => ({ object, ...r }));
      case 'dialogue':
        return ranked(await loaders.dialogue(ctx, ids), (d) => itemKey({ dialogueId: d.id, id: d.id })).map(
          (r) => ({ object, ...r }),
        );
      case 'memory':
        return ranked(await loaders.memory(ctx, ids), (m) => itemKey({ dialogueId: '', id: m.id })).map(
          (r) => ({ object, ...r }),
        );
    }
  }

  return {
    /**
     * D39-D41. `strategy` forces one signal (the quality evaluation compares them); by default
     * search is hybrid when an embedder is configured and lexical otherwise.
     */
    async search(context: ProjectContext, input: SearchInput, strategy?: Strategy): Promise<SearchAnswer> {
      const { projectId } = context;
      const filters: SearchFilters = {
        projectId,
        namespace: input.namespace ?? null,
        dialogueId: input.dialogueId,
        tags: input.tag,
      };
      if (input.dialogueId !== undefined) {
        await deps.dialogueScope.find(db, context, { id: input.dialogueId, namespace: filters.namespace });
      }

      const wanted: Strategy = strategy ?? (embedder ? 'hybrid' : 'lexical');
      const values = wanted === 'lexical' ? undefined : await queryVector(input.query);
      const used: Strategy = values ? wanted : 'lexical';
      const vector = values && embedder ? { embedder, values } : undefined;
      const k = Math.min(200, Math.max(40, input.limit * 4));
      const candidateQuery = { filters, text: input.query, vector, lexical: used !== 'semantic', k };

      let scored = scoreRows(
        await findCandidates(db, { ...candidateQuery, table: TABLE[input.object] }),
        used,
      );
      if (input.object === 'dialogue') {
        // D41: a dialogue is found by its label, tags and summary, and by its messages' text:
        // each dialogue scores as its best-matching part.
        // The tag filter names the dialogue's tags, not its messages'.
        const messageRows = await findCandidates(db, {
          ...candidateQuery,
          filters: { ...filters, tags: [], dialogueTags: filters.tags },
          table: 'messages',
          k: k * 3,
        });
        scored = bestPerDialogue([
          ...scored,
          ...scoreRows(messageRows, used).map((row) => ({ ...row, id: row.dialogueId })),
        ]);
      }

      const top = scored
        .filter((row) => row.relevance > 0 && row.relevance >= input.minRelevance)
        .sort((a, b) => b.relevance - a.relevance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, input.limit);
      return { results: await loadResults(context, input.object, top), mode: used };
    },
  };
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
