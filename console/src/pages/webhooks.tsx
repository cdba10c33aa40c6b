import { useEffect, useState } from 'preact/hooks';
import { type components, describeError } from '../api.js';
import { ErrorNotice } from '../components/notice.js';
import { TruncatedText } from '../components/truncated.js';
import { formatTime } from '../format.js';
import { useSession } from '../session-context.js';

type Webhook = components['schemas']['Webhook'];
type Delivery = components['schemas']['WebhookDeliveryAttempt'];

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { client } = useSession();
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const load = () =>
    client.webhooks.deliveries(webhook.id, { limit: 50 }).then(
      (page) => setDeliveries(page.items),
      (failure) => setError(describeError(failure)),
    );
  useEffect(() => {
    void load();
  }, [webhook.id]);
  const run = async (name: string, action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      setNotice(`${name}: queued.`);
      await load();
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <div>
      <fieldset class="actions">
        <legend class="visually-hidden">Actions for this endpoint</legend>
        <button type="button" onClick={() => run('Send test', () => client.webhooks.test(webhook.id))}>
          Send test
        </button>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            const after = Number(new FormData(event.currentTarget).get('after'));
            void run('Replay', () => client.webhooks.replay(webhook.id, { after }));
          }}
        >
          <label>
            Replay events after seq
            <input name="after" type="number" min={0} defaultValue="0" required />
          </label>
          <button type="submit">Replay</button>
        </form>
        <button type="button" onClick={() => void load()}>
          Refresh log
        </button>
      </fieldset>
      <ErrorNotice error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {deliveries && deliveries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{formatTime(delivery.created)}</td>
                  <td>
                    {delivery.type} {delivery.seq !== null && `#${delivery.seq}`}
                  </td>
                  <td>{delivery.attempt}</td>
                  <td>{delivery.status}</td>
                  <td>
                    {delivery.responseStatus ?? '—'}
                    {delivery.error && <TruncatedText text={` ${delivery.error}`} limit={200} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Webhook endpoints with their delivery log, a test event and replays. */
export function WebhooksPage() {
  const { client } = useSession();
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [chosen, setChosen] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    client.webhooks.list().then(
      (list) => setWebhooks(list.items),
      (failure) => setError(describeError(failure)),
    );
  }, [client]);
  const webhook = webhooks?.find((item) => item.id === chosen);
  return (
    <section>
      <h1>Webhooks</h1>
      <ErrorNotice error={error} />
      {webhooks && webhooks.length === 0 && (
        <p>No webhook endpoints. Register one with POST /api/v1/webhooks.</p>
      )}
      <ul class="cards" aria-label="Webhook endpoints">
        {webhooks?.map((item) => (
          <li key={item.id} class="card">
            <div class="message-head">
              <TruncatedText text={item.url} limit={120} />
              <span>
                {item.enabled
                  ? 'enabled'
                  : `disabled${item.disabledReason ? `: ${item.disabledReason}` : ''}`}
              </span>
              <span>{item.types.length ? item.types.join(', ') : 'all events'}</span>
              <button type="button" aria-pressed={chosen === item.id} onClick={() => setChosen(item.id)}>
                Deliveries
              </button>
            </div>
            {webhook?.id === item.id && <Deliveries webhook={item} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
