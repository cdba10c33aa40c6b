import { defaultRangeExtractor, type Range } from '@tanstack/virtual-core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Message } from '../api.js';
import { ShownInFull, TEXT_PREVIEW_CHARS } from '../components/truncated.js';
import { useElementVirtualizer } from '../components/virtualizer.js';
import { MessageItem } from './message-item.js';

/** Messages rendered beyond each edge of the pane, so that a short scroll shows no blank. */
const OVERSCAN = 6;
/** D131: once the pane is scrolled up to within this many pane heights of its top, the next older page is asked for. */
const NEAR_TOP_PANES = 2;
/** Space between two messages, in pixels (the list positions them; margins would not be measured). */
const GAP = 8;

/** A first guess at a message's height, replaced by its measured height once it is rendered. */
function estimateHeight(message: Message | undefined): number {
  if (!message) return 72;
  const content = message.content;
  if (typeof content !== 'string') return 160;
  const lines = Math.ceil(Math.min(content.length, TEXT_PREVIEW_CHARS) / 110);
  return 50 + 22 * Math.max(lines, 1);
}

type MessageListProps = {
  /** The loaded messages, oldest first. */
  messages: Message[];
  /** Asked when the reader scrolls near the oldest loaded message (it may be asked again while a page loads). */
  onNearTop: () => void;
  /** How many messages of the dialogue come before the oldest loaded one (not loaded yet). */
  before: number;
  /** The message the address names (`#id`), scrolled to once it is loaded. */
  target?: string;
  /** D160: forks the dialogue up to and including the message. */
  onFork: (messageId: string) => Promise<void>;
};

/**
 * D130: the dialogue's messages in a scrolling pane that holds only those in and near its view,
 * each placed at its measured offset. Older pages prepended above keep the message being read
 * where it is on screen; new messages at the bottom are followed while the pane is at its end.
 */
export function MessageList({ messages, before, onNearTop, target, onFork }: MessageListProps) {
  const pane = useRef<HTMLElement>(null);
  const [rawOpen, setRawOpen] = useState<ReadonlySet<string>>(() => new Set());
  /** The "Show all" pressed in messages, kept for when they come back into the window. */
  const [shownInFull] = useState(() => new Set<string>());
  /** The message holding the keyboard focus stays rendered, wherever the pane is scrolled. */
  const [focused, setFocused] = useState<string>();
  const nearTop = useRef(onNearTop);
  nearTop.current = onNearTop;
  const indexOf = useMemo(() => new Map(messages.map((message, index) => [message.id, index])), [messages]);

  const getItemKey = useCallback((index: number) => messages[index]?.id ?? index, [messages]);
  const estimateSize = useCallback((index: number) => estimateHeight(messages[index]), [messages]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const kept = focused === undefined ? undefined : indexOf.get(focused);
      if (kept === undefined || indexes.includes(kept)) return indexes;
      return [...indexes, kept].sort((a, b) => a - b);
    },
    [indexOf, focused],
  );
  const virtualizer = useElementVirtualizer<HTMLLIElement>({
    count: messages.length,
    getScrollElement: () => pane.current,
    getItemKey,
    estimateSize,
    rangeExtractor,
    overscan: OVERSCAN,
    gap: GAP,
    paddingStart: GAP,
    paddingEnd: GAP,
    // A conversation reads from its end: prepending keeps the reader's message in place,
    // and the pane follows new messages while it is scrolled to the newest.
    anchorTo: 'end',
    followOnAppend: true,
  });

  const toggleRaw = useCallback(
    (id: string) =>
      setRawOpen((open) => {
        const next = new Set(open);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  // A dialogue opens on its newest message, like a conversation; later pages of it keep their place.
  useLayoutEffect(() => {
    if (target === undefined) virtualizer.scrollToEnd();
  }, [virtualizer]);

  // The address's message, once loaded: scrolled to the middle of the pane, once.
  const reached = useRef<string>();
  const targetIndex = target === undefined ? undefined : indexOf.get(target);
  useEffect(() => {
    if (target === undefined || targetIndex === undefined || reached.current === target) return;
    reached.current = target;
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
  }, [target, targetIndex, virtualizer]);

  // The pane's own scroll events, not the virtualizer's reading of them: a scroll written while it
  // settles a prepend can be taken for its own correction, and would then ask for nothing.
  const onScroll = (event: Event) => {
    const element = event.currentTarget as HTMLElement;
    if (element.scrollTop < element.clientHeight * NEAR_TOP_PANES) nearTop.current();
  };
  const onFocusIn = (event: FocusEvent) => {
    setFocused((event.target as Element).closest('li.message')?.id || undefined);
  };
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (!next || !(event.currentTarget as Element).contains(next)) setFocused(undefined);
  };

  return (
    <ShownInFull.Provider value={shownInFull}>
      <section
        ref={pane}
        class="message-pane"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus, so that the keyboard scrolls it (arrows, Page Up, Home) as the mouse does (WCAG 2.1.1).
        tabIndex={0}
        aria-label="Messages, newest last"
        onScroll={onScroll}
      >
        <ol
          class="messages"
          aria-label="Messages"
          data-count={messages.length}
          style={{ height: `${virtualizer.getTotalSize()}px` }}
          onFocusIn={onFocusIn}
          onFocusOut={onFocusOut}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index]!;
            return (
              <MessageItem
                key={item.key}
                message={message}
                index={item.index}
                position={before + item.index + 1}
                size={before + messages.length}
                start={item.start}
                raw={rawOpen.has(message.id)}
                onToggleRaw={toggleRaw}
                onFork={onFork}
                target={message.id === target}
                measure={virtualizer.measureElement}
              />
            );
          })}
        </ol>
      </section>
    </ShownInFull.Provider>
  );
}
