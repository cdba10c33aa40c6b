import { JsonView } from './json-view.js';
import { TruncatedText } from './truncated.js';

// Message content and memory values, shown by kind: text as text, content blocks by their type,
// anything else as indented JSON. Nothing is ever inserted as markup: Preact sets text nodes, and
// a link is made only from an http(s) URL.

type Block = Record<string, unknown>;

/** An http(s) URL from user data, or undefined: `javascript:` and `data:` URLs never become links. */
export function safeLink(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The address an image block points at, in the shapes of the common chat APIs. */
function imageUrl(block: Block): unknown {
  const imageUrlField = block.image_url;
  if (typeof imageUrlField === 'string') return imageUrlField;
  if (imageUrlField && typeof imageUrlField === 'object') return (imageUrlField as Block).url;
  const source = block.source;
  if (source && typeof source === 'object') return (source as Block).url;
  return block.url;
}

function BlockView({ block, remember }: { block: Block; remember?: string }) {
  const type = typeof block.type === 'string' ? block.type : undefined;
  if (
    (type === 'text' || type === 'input_text' || type === 'output_text') &&
    typeof block.text === 'string'
  ) {
    return (
      <div class="block block-text">
        <TruncatedText text={block.text} remember={remember} />
      </div>
    );
  }
  if (type === 'image' || type === 'image_url' || type === 'input_image') {
    const href = safeLink(imageUrl(block));
    return (
      <div class="block block-image">
        <span class="block-kind">Image</span>{' '}
        {href ? (
          <a href={href} rel="noopener noreferrer nofollow" target="_blank">
            <TruncatedText text={href} limit={200} remember={remember} />
          </a>
        ) : (
          <span>(embedded or unsupported address, see Raw)</span>
        )}
      </div>
    );
  }
  if (type === 'tool_use' || type === 'tool_call' || type === 'function_call') {
    const name = block.name ?? (block.function as Block | undefined)?.name;
    const input = block.input ?? block.arguments ?? (block.function as Block | undefined)?.arguments;
    return (
      <div class="block block-tool-call">
        <span class="block-kind">Tool call</span> <code>{typeof name === 'string' ? name : '(unnamed)'}</code>
        <JsonView value={input ?? block} />
      </div>
    );
  }
  if (type === 'tool_result' || type === 'function_call_output') {
    return (
      <div class="block block-tool-result">
        <span class="block-kind">Tool result</span>
        <JsonView value={block.content ?? block.output ?? block} />
      </div>
    );
  }
  return (
    <div class="block">
      <JsonView value={block} />
    </div>
  );
}

/**
 * A message's content or a memory's value. `remember` keys its "Show all" choices in a windowed
 * list (D130): the content's own key, and the key and the block's place for a block.
 */
export function ContentView({ content, remember }: { content: unknown; remember?: string }) {
  if (typeof content === 'string') {
    return (
      <div class="content">
        <TruncatedText text={content} remember={remember} />
      </div>
    );
  }
  if (Array.isArray(content) && content.every((item) => item !== null && typeof item === 'object')) {
    return (
      <div class="content">
        {content.map((block, index) => (
          // Blocks have no id of their own; their place in the message is their identity.
          <BlockView
            key={index}
            block={block as Block}
            remember={remember === undefined ? undefined : `${remember}/${index}`}
          />
        ))}
      </div>
    );
  }
  return (
    <div class="content">
      <JsonView value={content} />
    </div>
  );
}
