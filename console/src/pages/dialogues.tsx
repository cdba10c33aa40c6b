import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import { type Dialogue, describeError } from '../api.js';
import { ExpiresAt } from '../components/expires-at.js';
import { ErrorNotice } from '../components/notice.js';
import { Tags, TruncatedText } from '../components/truncated.js';
import { formatTime, queryString } from '../format.js';
import { useSession } from '../session-context.js';

const STATUSES = ['active', 'ended', 'canceled', 'expired', 'deleted'] as const;
type Status = (typeof STATUSES)[number];

/** The dialogue list: filters and the cursor live in the address, so a reload keeps the view. */
export function DialoguesPage() {
  const { client } = useSession();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const filters = {
    namespace: search.get('namespace') ?? '',
    tag: search.get('tag') ?? '',
    status: search.get('status') ?? '',
    threadOf: search.get('threadOf') ?? '',
    forkedFrom: search.get('forkedFrom') ?? '',
  };
  const cursor = search.get('next') ?? undefined;
  const [page, setPage] = useState<{ items: Dialogue[]; next: string | null }>();
  const [error, setError] = useState<string>();
  const key = search.toString();

  useEffect(() => {
    let current = true;
    setError(undefined);
    client.dialogues
      .page({
        ...(filters.namespace ? { namespace: filters.namespace } : {}),
        ...(filters.tag ? { tag: filters.tag } : {}),
        ...(filters.status ? { status: filters.status as Status } : {}),
        ...(filters.threadOf ? { threadOf: filters.threadOf } : {}),
        ...(filters.forkedFrom ? { forkedFrom: filters.forkedFrom } : {}),
        ...(cursor ? { next: cursor } : {}),
        limit: 50,
      })
      .then(
        (result) => current && setPage(result),
        (failure) => current && setError(describeError(failure)),
      );
    return () => {
      current = false;
    };
    // The address is the whole input of this page.
  }, [client, key]);

  const applyFilters = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    navigate(
      `/dialogues${queryString({
        namespace: String(form.get('namespace') ?? '').trim(),
        tag: String(form.get('tag') ?? '').trim(),
        status: String(form.get('status') ?? ''),
        threadOf: String(form.get('threadOf') ?? '').trim(),
        forkedFrom: String(form.get('forkedFrom') ?? '').trim(),
      })}`,
    );
  };

  return (
    <section>
      <h1>Dialogues</h1>
      <form class="filters" onSubmit={applyFilters} aria-label="Filter dialogues">
        <label>
          Namespace
          <input name="namespace" value={filters.namespace} />
        </label>
        <label>
          Tag
          <input name="tag" value={filters.tag} />
        </label>
        <label>
          Status
          <select name="status" value={filters.status}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          Thread of
          <input name="threadOf" value={filters.threadOf} placeholder="dialogue id" />
        </label>
        <label>
          Forked from
          <input name="forkedFrom" value={filters.forkedFrom} placeholder="dialogue id" />
        </label>
        <button type="submit">Filter</button>
      </form>
      {filters.namespace && (
        <p>
          <Link href={`/erasures${queryString({ namespace: filters.namespace })}`}>
            Erase namespace {filters.namespace}…
          </Link>
        </p>
      )}
      <ErrorNotice error={error} />
      {page && page.items.length === 0 && <p>No dialogues match.</p>}
      {page && page.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Label</th>
                <th scope="col">Tags</th>
                <th scope="col">Messages</th>
                <th scope="col">Last activity</th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((dialogue) => (
                <tr key={dialogue.id}>
                  <td>
                    <Link href={`/dialogues/${dialogue.id}${queryString({ namespace: dialogue.namespace })}`}>
                      {dialogue.id}
                    </Link>
                  </td>
                  <td>{dialogue.label ? <TruncatedText text={dialogue.label} limit={80} /> : '—'}</td>
                  <td>
                    <Tags tags={dialogue.tags} />
                  </td>
                  <td>{dialogue.totalMessages.toLocaleString('en')}</td>
                  <td>{formatTime(dialogue.lastMessageCreated ?? dialogue.modified)}</td>
                  <td>
                    <ExpiresAt value={dialogue.expiresAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages of dialogues">
        {cursor && (
          <button type="button" onClick={() => window.history.back()}>
            Previous page
          </button>
        )}
        {page?.next && (
          <Link href={`/dialogues${queryString({ ...filters, next: page.next })}`}>Next page</Link>
        )}
      </nav>
    </section>
  );
}
