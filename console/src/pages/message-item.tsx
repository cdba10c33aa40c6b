import type { Ref } from 'preact';
import { memo } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { type Message, describeError, rawMessage } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ContentView } from '../components/content.js';
import { Tags } from '../components/truncated.js';
import { formatTime } from '../format.js';
import { useSession } from '../session-context.js';

/** The exact text the API returns for the message, fetched when asked for. */
function RawView({ message }: { message: Message }) {
  const { credentials } = useSession();
  const [raw, setRaw] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    rawMessage(credentials, message).then(setRaw, (failure) => setError(describeError(failure)));
  }, [credentials, message]);
  if (error) return <p class="error">{error}</p>;
  if (raw === undefined) return <p role="status">Loading the raw answer…</p>;
  return <pre class="raw">{raw}</pre>;
}

type MessageItemProps = {
  message: Message;
  /** Its place among the loaded messages (0 is the oldest loaded), which the virtualizer reads. */
  index: number;
  /** Its place in the whole dialogue and the dialogue's length: screen readers say "n of size". */
  position: number;
  size: number;
  /** Its offset from the top of the list, in pixels (D130: the list is windowed). */
  start: number;
  raw: boolean;
  onToggleRaw: (id: string) => void;
  onFork: (id: string) => Promise<void>;
  /** The message the address names (`#id`): marked, and scrolled to once. */
  target: boolean;
  measure: Ref<HTMLLIElement>;
};

/**
 * One message: role, time, tags, its content by kind, its raw JSON on demand, and a fork of the
 * dialogue up to it. Whether its raw view is open belongs to the list, so that it survives the
 * message leaving the window and coming back.
 */
export const MessageItem = memo(function MessageItem({
  message,
  index,
  position,
  size,
  start,
  raw,
  onToggleRaw,
  onFork,
  target,
  measure,
}: MessageItemProps) {
  return (
    <li
      class={target ? 'message target' : 'message'}
      id={message.id}
      ref={measure}
      data-index={index}
      aria-posinset={position}
      aria-setsize={size}
      aria-current={target ? 'true' : undefined}
      // Set through the CSSOM, which the style-src 'self' policy allows (D101).
      style={{ transform: `translateY(${start}px)` }}
    >
      <div class="message-head">
        <strong class={`role role-${message.role}`}>{message.role}</strong>
        {message.name && <span class="name">{message.name}</span>}
        <time dateTime={message.created}>{formatTime(message.created)}</time>
        <Tags tags={message.tags} remember={`${message.id}/tags`} />
        <button type="button" class="small" aria-pressed={raw} onClick={() => onToggleRaw(message.id)}>
          Raw
        </button>
        {/* D155: confirmed like every write of the dialogue's page. */}
        <ConfirmButton
          label="Fork here"
          small
          question="Fork the dialogue here? A new dialogue gets copies of the messages up to this one."
          onConfirm={() => onFork(message.id)}
        />
      </div>
      {raw ? <RawView message={message} /> : <ContentView content={message.content} remember={message.id} />}
    </li>
  );
});
