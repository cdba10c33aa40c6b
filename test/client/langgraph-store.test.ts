import type { Parley } from '@parley/client';
import { ParleyStore, fromParleyNamespace, toParleyNamespace } from '@parley/client/langchain';
import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';

// `@parley/client/langchain`'s ParleyStore (built, imported by its package name) against a real
// server: LangGraph's BaseStore operations, and a small graph that remembers and recalls through it.

let server: ClientServer;
let client: Parley;
beforeAll(async () => {
  server = await startClientServer();
  client = await server.newClient();
});
afterAll(() => server?.close());

describe('ParleyStore', () => {
  it('puts, gets, updates and deletes items as memories of the mapped namespace', async () => {
    const store = new ParleyStore({ client });
    expect(await store.get(['users', 'ada'], 'diet')).toBeNull();
    await store.put(['users', 'ada'], 'diet', { food: 'vegetarian', since: 2019 });
    const item = await store.get(['users', 'ada'], 'diet');
    expect(item).toMatchObject({
      namespace: ['users', 'ada'],
      key: 'diet',
      value: { food: 'vegetarian', since: 2019 },
    });
    expect(item!.createdAt).toBeInstanceOf(Date);
    await store.put(['users', 'ada'], 'diet', { food: 'vegan', since: 2023 });
    expect((await store.get(['users', 'ada'], 'diet'))!.value).toEqual({ food: 'vegan', since: 2023 });
    // One memory, in the Parley namespace the tuple maps to, with the key as its label.
    const memories = (await client.memories.page({ namespace: 'users/ada' })).items;
    expect(memories.map((m) => [m.label, m.value])).toEqual([['diet', { food: 'vegan', since: 2023 }]]);
    await store.delete(['users', 'ada'], 'diet');
    expect(await store.get(['users', 'ada'], 'diet')).toBeNull();
  });

  it('maps tuple namespaces one to one, without collisions', async () => {
    const store = new ParleyStore({ client });
    const tricky = [['a/b'], ['a', 'b'], ['a%2Fb'], ['a b', 'ü']];
    expect(new Set(tricky.map(toParleyNamespace)).size).toBe(tricky.length);
    for (const namespace of tricky) {
      expect(fromParleyNamespace(toParleyNamespace(namespace))).toEqual(namespace);
      await store.put(namespace, 'k', { from: namespace.join('|') });
    }
    for (const namespace of tricky) {
      expect((await store.get(namespace, 'k'))!.value).toEqual({ from: namespace.join('|') });
    }
    expect(await store.listNamespaces({ prefix: ['a'] })).toEqual([['a', 'b']]);
  });

  it('searches under a namespace prefix, by filter and by meaning, with limit and offset', async () => {
    const store = new ParleyStore({ client });
    await store.put(['docs', 'team', 'x'], 'one', {
      topic: 'billing',
      text: 'refund policy for invoices',
      rank: 1,
    });
    await store.put(['docs', 'team', 'y'], 'two', {
      topic: 'billing',
      text: 'invoice numbering rules',
      rank: 2,
    });
    await store.put(['docs', 'other'], 'three', {
      topic: 'shipping',
      text: 'parcel delivery times',
      rank: 3,
    });
    await store.put(['elsewhere'], 'four', { topic: 'billing', text: 'invoice archive', rank: 4 });

    const billing = await store.search(['docs'], { filter: { topic: 'billing' } });
    expect(billing.map((i) => i.key).sort()).toEqual(['one', 'two']);
    const ranked = await store.search(['docs'], { filter: { rank: { $gte: 2 } } });
    expect(ranked.map((i) => i.key).sort()).toEqual(['three', 'two']);
    expect(await store.search(['docs', 'team'], { limit: 1 })).toHaveLength(1);
    expect(await store.search(['docs', 'team'], { limit: 5, offset: 1 })).toHaveLength(1);

    const found = await store.search(['docs'], { query: 'invoice' });
    expect(found.map((i) => i.key).sort()).toEqual(['one', 'two']);
    expect(found.every((i) => typeof i.score === 'number')).toBe(true);
    const narrowed = await store.search(['docs', 'team', 'y'], { query: 'invoice' });
    expect(narrowed.map((i) => i.key)).toEqual(['two']);
  });

  it('lists namespaces by prefix, suffix and depth', async () => {
    const store = new ParleyStore({ client: await server.newClient() });
    await store.put(['a', 'b', 'c'], 'k', { v: 1 });
    await store.put(['a', 'b', 'd'], 'k', { v: 1 });
    await store.put(['a', 'e'], 'k', { v: 1 });
    await store.put(['f'], 'k', { v: 1 });
    expect(await store.listNamespaces()).toEqual([['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'e'], ['f']]);
    expect(await store.listNamespaces({ prefix: ['a', 'b'] })).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'd'],
    ]);
    expect(await store.listNamespaces({ suffix: ['d'] })).toEqual([['a', 'b', 'd']]);
    expect(await store.listNamespaces({ prefix: ['a'], maxDepth: 2 })).toEqual([
      ['a', 'b'],
      ['a', 'e'],
    ]);
    expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
      ['a', 'b', 'd'],
      ['a', 'e'],
    ]);
  });

  it('is the store of a small graph that remembers in one node and recalls in the next', async () => {
    const store = new ParleyStore({ client });
    const State = Annotation.Root({
      userId: Annotation<string>(),
      fact: Annotation<string>(),
      recalled: Annotation<string[]>(),
    });
    const graph = new StateGraph(State)
      .addNode('remember', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
        await config.store!.put(['memories', state.userId], `fact-${state.fact.length}`, {
          text: state.fact,
        });
        return {};
      })
      .addNode('recall', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
        const items = await config.store!.search(['memories', state.userId]);
        return { recalled: items.map((item) => item.value.text as string).sort() };
      })
      .addEdge(START, 'remember')
      .addEdge('remember', 'recall')
      .addEdge('recall', END)
      .compile({ store });

    await graph.invoke({ userId: 'ada', fact: 'likes tea' });
    const result = await graph.invoke({ userId: 'ada', fact: 'lives in Lisbon' });
    expect(result.recalled).toEqual(['likes tea', 'lives in Lisbon']);
    expect((await graph.invoke({ userId: 'bob', fact: 'likes coffee' })).recalled).toEqual(['likes coffee']);
  });
});
