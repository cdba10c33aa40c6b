import { TruncatedText } from './truncated.js';

/**
 * JSON as indented text. A value nested deeper than the engine's stack cannot be stringified:
 * it is shown as a note rather than breaking the page.
 */
export function formatJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return '(too deeply nested to display)';
  }
}

export function JsonView({ value }: { value: unknown }) {
  return (
    <pre class="json">
      <TruncatedText text={formatJson(value)} />
    </pre>
  );
}
