import { useEffect, useState } from 'preact/hooks';
import { useLocation, useSearch } from 'wouter-preact';
import { type components, describeError } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNotice } from '../components/notice.js';
import { ObjectCounts } from '../components/object-counts.js';
import { formatTime, queryString } from '../format.js';
import { useSession } from '../session-context.js';

type Erasure = components['schemas']['Erasure'];

/** D156: how often a pending erasure's record is read again. */
const POLL_MS = 1_000;

/** An erasure's record, read again every second while it is pending (D164: it runs in batches). */
function ErasureRecord({ id }: { id: string }) {
  const { client } = useSession();
  const [erasure, setErasure] = useState<Erasure>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setErasure(undefined);
    setError(undefined);
    const read = () =>
      client.erasures.get(id).then(
        (record) => {
          if (!current) return;
          setErasure(record);
          if (record.status === 'pending') timer = setTimeout(read, POLL_MS);
        },
        (failure) => current && setError(describeError(failure)),
      );
    void read();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, id]);
  if (error) return <ErrorNotice error={error} />;
  if (!erasure) return <p role="status">Loading the erasure…</p>;
  const completed = erasure.status === 'completed';
  return (
    <section class="card" aria-labelledby="erasure-heading">
      <h2 id="erasure-heading">
        Erasure <code>{erasure.id}</code>
      </h2>
      <p role="status" class="erasure-status">
        {completed ? 'Completed' : 'Pending'}: {completed ? 'erased' : 'erased so far'}{' '}
        <ObjectCounts counts={erasure.counts} />.
      </p>
      <dl class="facts">
        <dt>Namespace</dt>
        <dd>{erasure.namespace}</dd>
        <dt>Status</dt>
        <dd>{erasure.status}</dd>
        <dt>Requested</dt>
        <dd>{formatTime(erasure.createdAt)}</dd>
        <dt>Completed</dt>
        <dd>{completed ? formatTime(erasure.completedAt) : 'not yet'}</dd>
      </dl>
    </section>
  );
}

/**
 * Forgetting an end user (D162): every dialogue, message and memory of a namespace is erased, after
 * a confirmation; the erasure's record is then followed until it completes. The address names the
 * namespace to erase (`?namespace=`, as the dialogue list links it) or the erasure shown (`?id=`).
 */
export function ErasuresPage() {
  const { client } = useSession();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const shown = search.get('id') ?? undefined;
  const [namespace, setNamespace] = useState(search.get('namespace') ?? '');
  const [error, setError] = useState<string>();
  const erase = async () => {
    setError(undefined);
    const name = namespace.trim();
    if (!name) {
      setError('Name the namespace to erase.');
      return;
    }
    try {
      const erasure = await client.namespaces.erase(name);
      navigate(`/erasures${queryString({ id: erasure.id })}`);
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <section>
      <h1>Erasures</h1>
      <p class="hint">
        Forget an end user: erase every dialogue, message and memory of their namespace. The namespace reads
        as empty at once; the erasure finishes in the background.
      </p>
      <fieldset class="actions">
        <legend class="visually-hidden">Erase a namespace</legend>
        <label>
          Namespace
          <input
            name="namespace"
            value={namespace}
            maxLength={128}
            onInput={(event) => setNamespace(event.currentTarget.value)}
          />
        </label>
        <ConfirmButton
          label="Erase namespace"
          danger
          question={`Erase everything of namespace “${namespace.trim()}”? This cannot be undone.`}
          onConfirm={erase}
        />
      </fieldset>
      <ErrorNotice error={error} />
      {shown && <ErasureRecord id={shown} />}
    </section>
  );
}
