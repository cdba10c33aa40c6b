import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import { type components, describeError } from '../api.js';
import { ContentView } from '../components/content.js';
import { ErrorNotice } from '../components/notice.js';
import { TruncatedText } from '../components/truncated.js';
import { queryString } from '../format.js';
import { useSession } from '../session-context.js';

type SearchResult = components['schemas']['SearchResult'];
const OBJECTS = ['message', 'dialogue', 'memory'] as const;

function linkOf(result: SearchResult): string {
  if (result.object === 'message')
    return `/dialogues/${result.item.dialogueId}${queryString({ namespace: result.item.namespace })}#${result.item.id}`;
  if (result.object === 'dialogue')
    return `/dialogues/${result.item.id}${queryString({ namespace: result.item.namespace })}`;
  return `/memories${queryString({ id: result.item.id, namespace: result.item.namespace })}`;
}

/** Search by meaning and by words; each result shows its relevance and links to its item. */
export function SearchPage() {
  const { client } = useSession();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const query = search.get('q') ?? '';
  const object = (search.get('object') ?? 'message') as (typeof OBJECTS)[number];
  const namespace = search.get('namespace') ?? '';
  const tag = search.get('tag') ?? '';
  const [results, setResults] = useState<SearchResult[]>();
  const [error, setError] = useState<string>();
  const key = search.toString();

  useEffect(() => {
    if (!query) return;
    let current = true;
    setError(undefined);
    client
      .search({ query, object, ...(namespace ? { namespace } : {}), ...(tag ? { tag } : {}), limit: 20 })
      .then(
        (answer) => current && setResults(answer.results),
        (failure) => current && setError(describeError(failure)),
      );
    return () => {
      current = false;
    };
  }, [client, key]);

  return (
    <section>
      <h1>Search</h1>
      <form
        key={key}
        class="filters"
        aria-label="Search form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          navigate(
            `/search${queryString({
              q: String(form.get('q') ?? '').trim(),
              object: String(form.get('object') ?? ''),
              namespace: String(form.get('namespace') ?? '').trim(),
              tag: String(form.get('tag') ?? '').trim(),
            })}`,
          );
        }}
      >
        <label>
          Search
          <input name="q" type="search" defaultValue={query} required />
        </label>
        <label>
          Object type
          <select name="object" defaultValue={object}>
            {OBJECTS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Namespace
          <input name="namespace" defaultValue={namespace} />
        </label>
        <label>
          Tag
          <input name="tag" defaultValue={tag} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorNotice error={error} />
      {results && results.length === 0 && <p>Nothing found.</p>}
      {results && results.length > 0 && (
        <ol class="cards" aria-label="Results">
          {results.map((result) => (
            <li key={result.item.id} class="card">
              <div class="message-head">
                <span class="relevance">Relevance {result.relevance.toFixed(3)}</span>
                <span>{result.object}</span>
                <Link href={linkOf(result)}>{result.item.id}</Link>
              </div>
              {result.object === 'message' && <ContentView content={result.item.content} />}
              {result.object === 'memory' && <ContentView content={result.item.value} />}
              {result.object === 'dialogue' && (
                <p>
                  {result.item.label ? <TruncatedText text={result.item.label} limit={200} /> : '(no label)'}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
