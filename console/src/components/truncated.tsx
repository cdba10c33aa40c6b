import { createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';

/**
 * D130: where a windowed list keeps which texts and tag lists were shown in full, by a key the
 * list gives each one, so that one leaving the window and coming back opens as it was left.
 * Elsewhere there is none and the choice lives as long as the component.
 */
export const ShownInFull = createContext<Set<string> | null>(null);

/** Whether the "Show all" keyed `remember` was pressed, and the press that records it. */
function useShownInFull(remember: string | undefined): [boolean, () => void] {
  const kept = useContext(ShownInFull);
  const [open, setOpen] = useState(() => remember !== undefined && kept?.has(remember) === true);
  return [
    open,
    () => {
      if (remember !== undefined) kept?.add(remember);
      setOpen(true);
    },
  ];
}

/** Characters shown before "Show all": a 1 MiB message must not cost the page its speed. */
export const TEXT_PREVIEW_CHARS = 2000;

/** Long text cut for display, the whole of it one click away. Rendered as text, never as markup. */
export function TruncatedText({
  text,
  limit = TEXT_PREVIEW_CHARS,
  remember,
}: {
  text: string;
  limit?: number;
  remember?: string;
}) {
  const [open, showAll] = useShownInFull(remember);
  if (text.length <= limit || open) return <span class="text">{text}</span>;
  return (
    <span class="text">
      {text.slice(0, limit)}
      <span aria-hidden="true">…</span>{' '}
      <button type="button" class="link" onClick={showAll}>
        Show all ({text.length.toLocaleString('en')} characters)
      </button>
    </span>
  );
}

/** Tags shown before "Show all": thousands of them stay one line. */
export const TAG_PREVIEW_COUNT = 12;

export function Tags({ tags, remember }: { tags: readonly string[]; remember?: string }) {
  const [open, showAll] = useShownInFull(remember);
  if (tags.length === 0) return null;
  const shown = open ? tags : tags.slice(0, TAG_PREVIEW_COUNT);
  return (
    <ul class="tags" aria-label="Tags">
      {shown.map((tag) => (
        <li key={tag} class="tag">
          <TruncatedText text={tag} limit={60} />
        </li>
      ))}
      {shown.length < tags.length && (
        <li>
          <button type="button" class="link" onClick={showAll}>
            Show all {tags.length.toLocaleString('en')} tags
          </button>
        </li>
      )}
    </ul>
  );
}
