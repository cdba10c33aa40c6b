// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ExpiresAt } from '../src/components/expires-at.js';
import { ObjectCounts } from '../src/components/object-counts.js';
import { countOf } from '../src/format.js';

// The pieces the data lifecycle pages share (D156-D158): counts in words, and an expiry.

afterEach(cleanup);

describe('lifecycle components', () => {
  it('counts with the noun in the singular for one, the plural otherwise', () => {
    expect(countOf(1, 'message')).toBe('1 message');
    expect(countOf(0, 'message')).toBe('0 messages');
    expect(countOf(1234, 'memory', 'memories')).toBe('1,234 memories');
    expect(countOf(0.5, 'day')).toBe('0.5 days');
  });

  it('shows dialogues, messages and memories counted', () => {
    const { container } = render(<ObjectCounts counts={{ dialogues: 1, messages: 2, memories: 1 }} />);
    expect(container.textContent).toBe('1 dialogue, 2 messages, 1 memory');
  });

  it('shows an expiry as a machine-readable time, and none as never', () => {
    const at = '2030-01-02T03:04:05.000Z';
    const { container } = render(<ExpiresAt value={at} />);
    expect(container.querySelector('time')?.getAttribute('datetime')).toBe(at);
    cleanup();
    expect(render(<ExpiresAt value={null} />).container.textContent).toBe('never');
  });
});
