import {
  Virtualizer,
  type VirtualizerOptions,
  elementScroll,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

/** What the caller says; how a scrolling element is observed and scrolled is filled in here. */
export type ElementVirtualizerOptions<Item extends Element> = Omit<
  VirtualizerOptions<HTMLElement, Item>,
  'observeElementRect' | 'observeElementOffset' | 'scrollToFn'
>;

/**
 * D130: TanStack's framework-free virtualizer, bound to Preact the way its React adapter binds it
 * to React: one instance per component, its options refreshed on every render, a re-render on
 * each change it reports (Preact renders on a microtask, so a change seen in a ResizeObserver
 * callback still lands before the next paint), and its DOM work done in layout effects.
 */
export function useElementVirtualizer<Item extends Element>(
  options: ElementVirtualizerOptions<Item>,
): Virtualizer<HTMLElement, Item> {
  const [, rerender] = useReducer((version: number) => version + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, Item> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      rerender(undefined);
      options.onChange?.(instance, sync);
    },
  };
  const [virtualizer] = useState(() => new Virtualizer(resolved));
  virtualizer.setOptions(resolved);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}
