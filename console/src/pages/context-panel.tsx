import { useState } from 'preact/hooks';
import { type components, describeError } from '../api.js';
import { JsonView } from '../components/json-view.js';
import { ErrorNotice } from '../components/notice.js';
import { TruncatedText } from '../components/truncated.js';
import { useSession } from '../session-context.js';

type DialogueContext = components['schemas']['DialogueContext'];
const FORMATS = ['messages', 'anthropic', 'text'] as const;

/** What the context endpoint would hand a model for a token budget and format, with its counts. */
export function ContextPanel({ dialogueId, namespace }: { dialogueId: string; namespace?: string }) {
  const { client } = useSession();
  const [context, setContext] = useState<DialogueContext>();
  const [error, setError] = useState<string>();
  const show = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      setContext(
        await client.dialogues.context(dialogueId, {
          ...(namespace ? { namespace } : {}),
          maxTokens: Number(form.get('maxTokens')),
          format: String(form.get('format')) as (typeof FORMATS)[number],
        }),
      );
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <details class="context">
      <summary>Context for a model</summary>
      <form class="filters" onSubmit={show}>
        <label>
          Token budget
          <input name="maxTokens" type="number" min={1} defaultValue="4000" required />
        </label>
        <label>
          Format
          <select name="format" defaultValue="messages">
            {FORMATS.map((format) => (
              <option key={format} value={format}>
                {format}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show context</button>
      </form>
      <ErrorNotice error={error} />
      {context && (
        <div>
          <p role="status">
            {context.tokens.toLocaleString('en')} tokens; {context.omittedMessages.toLocaleString('en')} older
            messages left out.
          </p>
          {context.system !== null && (
            <>
              <h3>System</h3>
              <pre class="json">
                <TruncatedText text={context.system} />
              </pre>
            </>
          )}
          {context.text !== null && (
            <pre class="json">
              <TruncatedText text={context.text} />
            </pre>
          )}
          {context.messages !== null && <JsonView value={context.messages} />}
        </div>
      )}
    </details>
  );
}
