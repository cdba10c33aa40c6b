import { useEffect, useRef, useState } from 'preact/hooks';
import { type ParleyEvent, describeError } from '../api.js';
import { JsonView } from '../components/json-view.js';
import { ErrorNotice } from '../components/notice.js';
import { formatTime } from '../format.js';
import { useSession } from '../session-context.js';

const FILTERS = ['', 'dialogue.*', 'message.*', 'memory.*'] as const;
type Filter = (typeof FILTERS)[number];
/** Events kept on the page; older ones scroll away. */
const KEPT = 500;

/**
 * A live tail of the event feed. Pausing closes the stream; resuming opens it again after the
 * last seq received, so nothing written meanwhile is lost (D66).
 */
export function EventsPage() {
  const { client } = useSession();
  const [filter, setFilter] = useState<Filter>('');
  const [paused, setPaused] = useState(false);
  const [events, setEvents] = useState<ParleyEvent[]>([]);
  const [error, setError] = useState<string>();
  const lastSeq = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (paused) return;
    const stop = new AbortController();
    setError(undefined);
    (async () => {
      try {
        for await (const event of client.events.stream({
          ...(filter ? { type: filter } : {}),
          ...(lastSeq.current !== undefined ? { after: lastSeq.current } : {}),
          signal: stop.signal,
        })) {
          lastSeq.current = event.seq;
          setEvents((shown) => [event, ...shown].slice(0, KEPT));
        }
      } catch (failure) {
        if (!stop.signal.aborted) setError(describeError(failure));
      }
    })();
    return () => stop.abort();
  }, [client, filter, paused]);

  return (
    <section>
      <h1>Events</h1>
      <div class="filters">
        <label>
          Type
          <select
            value={filter}
            onChange={(event) => {
              // Another filter is another feed: it starts from now.
              lastSeq.current = undefined;
              setEvents([]);
              setFilter(event.currentTarget.value as Filter);
            }}
          >
            {FILTERS.map((value) => (
              <option key={value} value={value}>
                {value || 'All types'}
              </option>
            ))}
          </select>
        </label>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <span role="status">{paused ? 'Paused' : 'Live'}</span>
      </div>
      <ErrorNotice error={error} />
      {events.length === 0 && <p>Waiting for events…</p>}
      <ol class="cards" aria-label="Events">
        {events.map((event) => (
          <li key={event.seq} class="card event" data-seq={event.seq}>
            <div class="message-head">
              <span>#{event.seq}</span>
              <strong>{event.type}</strong>
              <code>{event.objectId}</code>
              <time dateTime={event.created}>{formatTime(event.created)}</time>
            </div>
            <details>
              <summary>Data</summary>
              <JsonView value={event.data} />
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
