// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentView, safeLink } from '../src/components/content.js';
import { formatJson } from '../src/components/json-view.js';
import { TAG_PREVIEW_COUNT, TEXT_PREVIEW_CHARS, Tags } from '../src/components/truncated.js';

// Content is user data: shown by kind, as text, cut for display with the rest on demand.

afterEach(cleanup);

describe('content rendering', () => {
  it('shows text as text: markup in a message is characters, not elements', () => {
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const { container } = render(<ContentView content={hostile} />);
    expect(container.textContent).toBe(hostile);
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('shows content blocks by type: text, image as a link, tool call and result as JSON', () => {
    const { container } = render(
      <ContentView
        content={[
          { type: 'text', text: 'Here is the chart' },
          { type: 'image_url', image_url: { url: 'https://example.com/chart.png' } },
          { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_result', tool_use_id: 't1', content: { temperature: -3 } },
          { type: 'custom', value: [1, 2] },
        ]}
      />,
    );
    expect(screen.getByText('Here is the chart')).toBeTruthy();
    const link = screen.getByRole('link') as HTMLAnchorElement;
    expect(link.href).toBe('https://example.com/chart.png');
    expect(link.rel).toContain('noopener');
    expect(screen.getByText('get_weather').tagName).toBe('CODE');
    const json = [...container.querySelectorAll('pre.json')].map((pre) => pre.textContent);
    expect(json).toEqual([
      formatJson({ city: 'Oslo' }),
      formatJson({ temperature: -3 }),
      formatJson({ type: 'custom', value: [1, 2] }),
    ]);
  });

  it('never makes a link of a javascript: or data: address', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      expect(safeLink(url)).toBeUndefined();
      render(<ContentView content={[{ type: 'image', source: { url } }]} />);
      expect(screen.queryByRole('link')).toBeNull();
      cleanup();
    }
    expect(safeLink('http://example.com/a b')).toBe('http://example.com/a%20b');
  });

  it('pretty-prints any other JSON', () => {
    const value = { answer: 42, nested: { list: [true, null] } };
    const { container } = render(<ContentView content={value} />);
    expect(container.querySelector('pre.json')?.textContent).toBe(JSON.stringify(value, null, 2));
  });

  it('shows a note instead of failing on JSON too deep to stringify', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(formatJson(deep)).toBe('(too deeply nested to display)');
  });
});

describe('truncation', () => {
  it('cuts a huge text for display and shows all of it on demand', () => {
    const huge = 'x'.repeat(1024 * 1024);
    const { container } = render(<ContentView content={huge} />);
    const shown = () => (container.querySelector('.text')!.firstChild as Text).data;
    expect(shown().length).toBe(TEXT_PREVIEW_CHARS);
    fireEvent.click(screen.getByRole('button', { name: /Show all \(1,048,576 characters\)/ }));
    expect(container.querySelector('.text')?.textContent).toBe(huge);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('leaves a short text whole, with no button', () => {
    render(<ContentView content="short" />);
    expect(screen.getByText('short')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the first tags of thousands, and all of them on demand', () => {
    const tags = Array.from({ length: 1000 }, (_, i) => `tag-${i}`);
    render(<Tags tags={tags} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(TAG_PREVIEW_COUNT + 1);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 1,000 tags' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1000);
  });
});
