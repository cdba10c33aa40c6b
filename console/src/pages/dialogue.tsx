import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useSearch } from 'wouter-preact';
import { type Dialogue, type Message, describeError } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNotice } from '../components/notice.js';
import { queryString } from '../format.js';
import { useSession } from '../session-context.js';
import { ContextPanel } from './context-panel.js';
import { DialogueFacts } from './dialogue-facts.js';
import { MessageList } from './message-list.js';

/** Messages per request: the newest page shows at once, older ones load by cursor on demand. */
const PAGE_SIZE = 100;

/** The message an address names after `#` (a search result links to one), if any. */
function messageInAddress(): string | undefined {
  const hash = window.location.hash.slice(1);
  if (!hash) return undefined;
  try {
    return decodeURIComponent(hash);
  } catch {
    return undefined;
  }
}

/**
 * One dialogue: its facts, its messages (newest page first, older ones by cursor as the reader
 * scrolls up or asks, new ones live), its actions.
 */
export function DialoguePage({ id }: { id: string }) {
  const { client } = useSession();
  const namespace = new URLSearchParams(useSearch()).get('namespace') ?? undefined;
  const scope = namespace ? { namespace } : {};
  const [, navigate] = useLocation();
  const [dialogue, setDialogue] = useState<Dialogue>();
  const [messages, setMessages] = useState<Message[]>([]);
  const [older, setOlder] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [target, setTarget] = useState<string>();
  /** The cursor and the request in flight, read by callbacks that outlive a render. */
  const cursor = useRef<string | null>(null);
  const inFlight = useRef(false);
  /** Bumped when the page turns to another dialogue: answers for the one before are dropped. */
  const generation = useRef(0);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const reloadDialogue = () =>
    client.dialogues.get(id, scope).then(
      (value) => setDialogue(value),
      (failure) => setError(describeError(failure)),
    );

  useEffect(() => {
    let current = true;
    const opened = ++generation.current;
    setLoading(true);
    setError(undefined);
    setMessages([]);
    setOlder(null);
    cursor.current = null;
    inFlight.current = false;
    setTarget(messageInAddress());
    // The first read waits until the event stream is open (or has failed to open): a message
    // written before that is in the read, one written after it comes through the stream, and
    // merge() keeps one of each.
    let streamOpened: () => void = () => {};
    const streamReady = new Promise<void>((resolve) => {
      streamOpened = resolve;
    });
    const stop = new AbortController();
    (async () => {
      try {
        for await (const event of client.events.stream({
          ...scope,
          dialogueId: id,
          type: ['message.*', 'dialogue.*'],
          signal: stop.signal,
          onOpen: () => streamOpened(),
        })) {
          if (event.type === 'message.created') setMessages((shown) => merge(shown, [event.data as Message]));
          else if (event.type === 'message.deleted')
            setMessages((shown) => shown.filter((message) => message.id !== event.objectId));
          else if (event.objectId === id) void reloadDialogue();
        }
      } catch (failure) {
        if (!stop.signal.aborted) setNotice(`Live updates stopped: ${describeError(failure)}`);
      } finally {
        streamOpened();
      }
    })();
    void streamReady.then(() =>
      Promise.all([
        client.dialogues.get(id, scope),
        client.messages.pageOfDialogue(id, { ...scope, order: 'desc', limit: PAGE_SIZE }),
      ]).then(
        ([value, page]) => {
          if (!current) return;
          setDialogue(value);
          // Newest first from the API; the page reads oldest first, like a conversation.
          setMessages((live) => merge(page.items.toReversed(), live));
          cursor.current = page.next;
          setOlder(page.next);
          setLoading(false);
        },
        (failure) => {
          if (!current) return;
          setError(describeError(failure));
          setLoading(false);
        },
      ),
    );
    return () => {
      current = false;
      stop.abort();
      if (generation.current === opened) generation.current++;
    };
  }, [client, id, namespace]);

  /** The next older page by cursor, prepended; asked again while one is loading, it does nothing. */
  const loadOlder = useCallback(async () => {
    const next = cursor.current;
    if (!next || inFlight.current) return;
    const asked = generation.current;
    inFlight.current = true;
    setLoadingOlder(true);
    try {
      const page = await client.messages.pageOfDialogue(id, {
        ...scope,
        order: 'desc',
        limit: PAGE_SIZE,
        next,
      });
      if (generation.current !== asked) return;
      setMessages((shown) => merge(page.items.toReversed(), shown));
      cursor.current = page.next;
      setOlder(page.next);
    } catch (failure) {
      if (generation.current === asked) setError(describeError(failure));
    } finally {
      if (generation.current === asked) {
        inFlight.current = false;
        setLoadingOlder(false);
      }
    }
  }, [client, id, namespace]);

  // D132: the message the address names: older pages load until it is among them or none is left.
  const targetLoaded = target !== undefined && messages.some((message) => message.id === target);
  useEffect(() => {
    if (loading || target === undefined || targetLoaded || loadingOlder) return;
    if (older) void loadOlder();
    else setNotice(`Message ${target} is not in this dialogue.`);
  }, [loading, target, targetLoaded, loadingOlder, older, loadOlder]);

  const act = async <T,>(name: string, action: () => Promise<T>): Promise<T | undefined> => {
    setError(undefined);
    try {
      const result = await action();
      setNotice(`${name}: done.`);
      return result;
    } catch (failure) {
      setError(describeError(failure));
      return undefined;
    }
  };
  /** Opens a dialogue the page made (a continuation, a fork). */
  const open = (made: { id: string; namespace: string | null } | undefined) => {
    if (made) navigate(`/dialogues/${made.id}${queryString({ namespace: made.namespace })}`);
  };

  // D160: a new dialogue with copies of the messages up to this one, opened at once.
  const fork = useCallback(
    async (messageId: string) =>
      open(await act('Fork', () => client.dialogues.fork(id, { upToMessageId: messageId }, scope))),
    [client, id, namespace],
  );

  return (
    <section>
      <h1>
        Dialogue <code>{id}</code>
      </h1>
      <ErrorNotice error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {loading && <p role="status">Loading…</p>}
      {dialogue && (
        <>
          <DialogueFacts dialogue={dialogue} />
          <fieldset class="actions">
            <legend class="visually-hidden">Dialogue actions</legend>
            <ConfirmButton
              label="End"
              question="End this dialogue? It will accept no more messages."
              onConfirm={async () => {
                await act('End', () => client.dialogues.end(id, scope).then(reloadDialogue));
              }}
            />
            <ConfirmButton
              label="Compact"
              question="Compact this dialogue into a summary?"
              onConfirm={async () => {
                await act('Compact', () => client.dialogues.compact(id, scope).then(reloadDialogue));
              }}
            />
            <ConfirmButton
              label="Continue"
              question="Continue this dialogue in a new one?"
              onConfirm={async () => open(await act('Continue', () => client.dialogues.continue(id, scope)))}
            />
            <ConfirmButton
              label="Delete"
              danger
              question="Delete this dialogue and all its messages? This cannot be undone."
              onConfirm={async () => {
                if (await act('Delete', () => client.dialogues.delete(id, scope).then(() => true)))
                  navigate('/dialogues');
              }}
            />
          </fieldset>
          <ContextPanel dialogueId={id} namespace={namespace} />
        </>
      )}
      <h2>Messages</h2>
      <div class="list-controls">
        {older && (
          <button type="button" onClick={loadOlder}>
            Load older messages
          </button>
        )}
        <p class="list-status" role="status">
          {loadingOlder
            ? target !== undefined && !targetLoaded
              ? `Looking for message ${target}: loading older messages…`
              : 'Loading older messages…'
            : `${messages.length.toLocaleString('en')} of ${Math.max(dialogue?.totalMessages ?? 0, messages.length).toLocaleString('en')} messages loaded`}
        </p>
      </div>
      {messages.length > 0 && (
        <MessageList
          key={id}
          messages={messages}
          before={older ? Math.max(0, (dialogue?.totalMessages ?? 0) - messages.length) : 0}
          onNearTop={loadOlder}
          onFork={fork}
          target={targetLoaded ? target : undefined}
        />
      )}
      {!loading && messages.length === 0 && <p>No messages yet.</p>}
    </section>
  );
}

/** `first`, then the messages of `second` it does not hold: older pages go first, live ones last. */
function merge(first: Message[], second: Message[]): Message[] {
  if (second.length === 0) return first;
  if (first.length === 0) return second;
  const seen = new Set(first.map((message) => message.id));
  return [...first, ...second.filter((message) => !seen.has(message.id))];
}
