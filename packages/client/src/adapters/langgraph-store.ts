import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from '@langchain/langgraph-checkpoint';
import type { Memory, Parley } from '../index.js';

// A LangGraph.js store over Parley memories. An item is a memory: its key is the memory's label,
// its value the memory's value (stored exactly), its namespace tuple the memory's namespace.
//
// Namespaces, one to one: the tuple's labels, each percent-encoded (encodeURIComponent, which
// encodes "/" and "%"), joined with "/": ["users", "a/b"] is "users/a%2Fb". No two tuples give the
// same string, and the string gives back the tuple. The store's memories carry the tag STORE_TAG (so
// that other memories of the project are never taken for items) and each label of their namespace
// in their metadata (`langgraph.namespace.0`, `.1`, ...), so that a search under a prefix asks
// Parley for the memories of every namespace below it at once.

const STORE_TAG = 'langgraph';
const namespaceField = (index: number) => `langgraph.namespace.${index}`;
/** Parley's search filters on at most 20 metadata fields; deeper labels are matched here. */
const FILTERED_LABELS = 20;
const PAGE = 100;

export function toParleyNamespace(namespace: string[]): string {
  return namespace.map(encodeURIComponent).join('/');
}

export function fromParleyNamespace(namespace: string): string[] {
  return namespace.split('/').map(decodeURIComponent);
}

export interface ParleyStoreInput {
  client: Parley;
}

type Filter = Record<string, unknown>;
const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

/** LangGraph's filter semantics on a value's top-level fields (as its in-memory store has them). */
function matches(value: Record<string, unknown>, filter: Filter | undefined): boolean {
  return Object.entries(filter ?? {}).every(([field, wanted]) => {
    const actual = value[field];
    const isOperators =
      typeof wanted === 'object' && wanted !== null && Object.keys(wanted).every((k) => OPERATORS.has(k));
    if (!isOperators) return actual === wanted;
    return Object.entries(wanted as Record<string, unknown>).every(([op, operand]) => {
      switch (op) {
        case '$eq':
          return actual === operand;
        case '$ne':
          return actual !== operand;
        case '$gt':
          return Number(actual) > Number(operand);
        case '$gte':
          return Number(actual) >= Number(operand);
        case '$lt':
          return Number(actual) < Number(operand);
        case '$lte':
          return Number(actual) <= Number(operand);
        case '$in':
          return Array.isArray(operand) && operand.includes(actual);
        default:
          return !Array.isArray(operand) || !operand.includes(actual);
      }
    });
  });
}

const startsWith = (namespace: string[], prefix: string[]) =>
  prefix.length <= namespace.length && prefix.every((label, i) => label === namespace[i]);

function meets(namespace: string[], { matchType, path }: MatchCondition): boolean {
  if (path.length > namespace.length) return false;
  const offset = matchType === 'suffix' ? namespace.length - path.length : 0;
  return path.every((label, i) => label === '*' || label === namespace[offset + i]);
}

function itemOf(memory: Memory): Item {
  return {
    namespace: fromParleyNamespace(memory.namespace ?? ''),
    key: memory.label ?? '',
    value: memory.value as Record<string, unknown>,
    createdAt: new Date(memory.created),
    updatedAt: new Date(memory.modified),
  };
}

export class ParleyStore extends BaseStore {
  private readonly client: Parley;

  constructor(input: ParleyStoreInput) {
    super();
    this.client = input.client;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) {
      if ('key' in operation && 'value' in operation) results.push(await this.putItem(operation));
      else if ('key' in operation) results.push(await this.getItem(operation));
      else if ('namespacePrefix' in operation) results.push(await this.searchItems(operation));
      else results.push(await this.namespaces(operation));
    }
    return results as OperationResults<Op>;
  }

  private async find(namespace: string[], key: string): Promise<Memory | undefined> {
    const page = await this.client.memories.page({
      namespace: toParleyNamespace(namespace),
      label: key,
      tag: [STORE_TAG],
      limit: 1,
    });
    return page.items[0];
  }

  private async getItem({ namespace, key }: GetOperation): Promise<Item | null> {
    const memory = await this.find(namespace, key);
    return memory ? itemOf(memory) : null;
  }

  private async putItem({ namespace, key, value }: PutOperation): Promise<void> {
    const existing = await this.find(namespace, key);
    const parleyNamespace = toParleyNamespace(namespace);
    if (value === null) {
      if (existing) await this.client.memories.delete(existing.id, { namespace: parleyNamespace });
    } else if (existing) {
      await this.client.memories.update(existing.id, { value }, { namespace: parleyNamespace });
    } else {
      await this.client.memories.create({
        namespace: parleyNamespace,
        label: key,
        value,
        tags: [STORE_TAG],
        metadata: Object.fromEntries(namespace.map((label, i) => [namespaceField(i), label])),
      });
    }
  }

  /** Every memory of the store, newest first. */
  private async *everything(): AsyncGenerator<Memory> {
    yield* this.client.memories.list({ tag: [STORE_TAG], limit: PAGE });
  }

  private async searchItems(operation: SearchOperation): Promise<SearchItem[]> {
    const { namespacePrefix: prefix, filter, query, limit = 10, offset = 0 } = operation;
    const found: SearchItem[] = [];
    if (query) {
      // By meaning: Parley ranks; the prefix is its metadata filter, LangGraph's value filter is
      // applied to what it found (Parley filters on metadata, not inside values).
      const { results } = await this.client.search({
        query,
        object: 'memory',
        tag: [STORE_TAG],
        metadata: Object.fromEntries(
          prefix.slice(0, FILTERED_LABELS).map((label, i) => [namespaceField(i), label]),
        ),
        limit: PAGE,
      });
      for (const result of results) {
        if (result.object !== 'memory') continue;
        found.push({ ...itemOf(result.item), score: result.relevance });
      }
    } else {
      for await (const memory of this.everything()) found.push(itemOf(memory));
    }
    return found
      .filter((item) => startsWith(item.namespace, prefix) && matches(item.value, filter))
      .slice(offset, offset + limit);
  }

  private async namespaces(operation: ListNamespacesOperation): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    for await (const memory of this.everything()) {
      let namespace = itemOf(memory).namespace;
      if (!(operation.matchConditions ?? []).every((condition) => meets(namespace, condition))) continue;
      if (operation.maxDepth !== undefined) namespace = namespace.slice(0, operation.maxDepth);
      seen.set(toParleyNamespace(namespace), namespace);
    }
    return [...seen.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, namespace]) => namespace)
      .slice(operation.offset, operation.offset + operation.limit);
  }
}
