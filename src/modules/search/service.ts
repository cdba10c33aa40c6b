import type { Database } from '../../db/client.js';
import type { ProjectContext } from '../../core/context.js';
import type { Embedder } from '../../embedders/embedder.js';
import { AppError } from '../../core/errors.js';
import {
  type CandidateRow,
  type SearchFilters,
  type SearchTable,
  findCandidates,
  findDialogueNamespace,
} from './repository.js';
import type { SearchInput, SearchMode, SearchObject } from './schemas.js';
import { type Fusion, type Strategy, relevance } from './scoring.js';

/** A found record as the API returns it. */
export type SearchItem = Record<string, unknown>;

/** Loads the records of found items in one query each; keyed by `itemKey`. */
export type ItemLoader = (context: ProjectContext, keys: ItemKey[]) => Promise<Map<string, SearchItem>>;
export type ItemLoaders = Record<SearchObject, ItemLoader>;

export interface ItemKey {
  dialogueId: string;
  id: string;
}

export const itemKey = (key: ItemKey): string => `${key.dialogueId}\u0000${key.id}`;

export interface SearchServiceDeps {
  /** The read database (a replica when configured). */
  db: Database;
  embedder?: Embedder;
  loaders: ItemLoaders;
  /** How the two signals are mixed; the measured default unless the evaluation tries others. */
  fusion?: Fusion;
  /** Logs a failed query embedding (search then answers from full text alone). */
  onEmbedError?: (error: unknown) => void;
}

export interface SearchResult {
  results: { relevance: number; item: SearchItem }[];
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
  const { db, embedder, loaders } = deps;

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

  /** D34: a dialogue filter must name a dialogue of this project and of the given namespace. */
  async function checkDialogue(projectId: string, dialogueId: string, namespace: string | null) {
    const dialogue = await findDialogueNamespace(db, projectId, dialogueId);
    if (!dialogue || dialogue.namespace !== namespace) {
      throw new AppError('DIALOGUE_NOT_FOUND', `Dialogue ${dialogueId} not found`);
    }
  }

  function scoreRows(rows: CandidateRow[], strategy: Strategy): Scored[] {
    return rows.map((row) => ({
      dialogueId: row.dialogueId,
      id: row.id,
      relevance: relevance(row, strategy, deps.fusion),
    }));
  }

  return {
    /**
     * D39-D41. `strategy` forces one signal (the quality evaluation compares them); by default
     * search is hybrid when an embedder is configured and lexical otherwise.
     */
    async search(context: ProjectContext, input: SearchInput, strategy?: Strategy): Promise<SearchResult> {
      const { projectId } = context;
      const filters: SearchFilters = {
        projectId,
        namespace: input.namespace ?? null,
        dialogueId: input.dialogueId,
        tags: input.tag,
      };
      if (input.dialogueId !== undefined) await checkDialogue(projectId, input.dialogueId, filters.namespace);

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
      const items = await loaders[input.object](context, top);
      const results = top.flatMap((row) => {
        const item = items.get(itemKey(row));
        // An item deleted between the two queries is left out rather than answered half.
        return item === undefined ? [] : [{ relevance: Math.round(row.relevance * 1e6) / 1e6, item }];
      });
      return { results, mode: used };
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
