import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import { type Memory, describeError } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ContentView } from '../components/content.js';
import { ExpiresAt } from '../components/expires-at.js';
import { ErrorNotice } from '../components/notice.js';
import { Tags, TruncatedText } from '../components/truncated.js';
import { formatTime, queryString } from '../format.js';
import { useSession } from '../session-context.js';

/** Memories: a list paged by cursor, each shown with its value, deletable after confirmation. */
export function MemoriesPage() {
  const { client } = useSession();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const namespace = search.get('namespace') ?? '';
  const tag = search.get('tag') ?? '';
  const cursor = search.get('next') ?? undefined;
  const focused = search.get('id') ?? undefined;
  const [page, setPage] = useState<{ items: Memory[]; next: string | null }>();
  const [single, setSingle] = useState<Memory>();
  const [error, setError] = useState<string>();
  const key = search.toString();

  useEffect(() => {
    let current = true;
    setError(undefined);
    const scope = namespace ? { namespace } : {};
    const load = focused
      ? client.memories.get(focused, scope).then((memory) => current && setSingle(memory))
      : client.memories
          .page({ ...scope, ...(tag ? { tag } : {}), ...(cursor ? { next: cursor } : {}), limit: 50 })
          .then((result) => current && setPage(result));
    load.catch((failure) => current && setError(describeError(failure)));
    return () => {
      current = false;
    };
  }, [client, key]);

  const remove = async (memory: Memory) => {
    try {
      await client.memories.delete(memory.id, memory.namespace ? { namespace: memory.namespace } : {});
      if (focused) navigate('/memories');
      else setPage((shown) => shown && { ...shown, items: shown.items.filter((m) => m.id !== memory.id) });
    } catch (failure) {
      setError(describeError(failure));
    }
  };

  const items = focused ? (single ? [single] : []) : (page?.items ?? []);
  return (
    <section>
      <h1>Memories</h1>
      <form
        key={key}
        class="filters"
        aria-label="Filter memories"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          navigate(
            `/memories${queryString({
              namespace: String(form.get('namespace') ?? '').trim(),
              tag: String(form.get('tag') ?? '').trim(),
            })}`,
          );
        }}
      >
        <label>
          Namespace
          <input name="namespace" defaultValue={namespace} />
        </label>
        <label>
          Tag
          <input name="tag" defaultValue={tag} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {focused && <Link href="/memories">All memories</Link>}
      <ErrorNotice error={error} />
      {!focused && page && items.length === 0 && <p>No memories match.</p>}
      <ul class="cards" aria-label="Memories">
        {items.map((memory) => (
          <li key={memory.id} class="card" id={memory.id}>
            <div class="message-head">
              <Link href={`/memories${queryString({ id: memory.id, namespace: memory.namespace })}`}>
                {memory.id}
              </Link>
              {memory.label && <strong>{<TruncatedText text={memory.label} limit={80} />}</strong>}
              <time dateTime={memory.modified}>{formatTime(memory.modified)}</time>
              {memory.expiresAt && (
                <span class="hint">
                  expires <ExpiresAt value={memory.expiresAt} />
                </span>
              )}
              <Tags tags={memory.tags} />
              <ConfirmButton
                label="Delete"
                danger
                question="Delete this memory?"
                onConfirm={() => remove(memory)}
              />
            </div>
            {memory.description && (
              <p class="hint">
                <TruncatedText text={memory.description} limit={300} />
              </p>
            )}
            <ContentView content={memory.value} />
          </li>
        ))}
      </ul>
      {!focused && (
        <nav class="pager" aria-label="Pages of memories">
          {cursor && (
            <button type="button" onClick={() => window.history.back()}>
              Previous page
            </button>
          )}
          {page?.next && (
            <Link href={`/memories${queryString({ namespace, tag, next: page.next })}`}>Next page</Link>
          )}
        </nav>
      )}
    </section>
  );
}
