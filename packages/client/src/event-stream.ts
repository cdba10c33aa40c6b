// The text/event-stream format (the HTML standard's "server-sent events"), read from a fetch body
// stream. Written here rather than taken from a package: the client's only dependency is
// openapi-fetch, and the part of the format Parley's stream uses is a few lines.

export interface ServerSentEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** The messages of a text/event-stream body: `id`, `event` and `data` fields; comments skipped. */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let message: ServerSentEvent = {};
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      // A CR that ends the chunk may be the first half of a CRLF: it waits for the next chunk.
      while (newline >= 0 && !(buffer[newline] === '\r' && newline === buffer.length - 1)) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer.startsWith('\r\n', newline) ? newline + 2 : newline + 1);
        if (line === '') {
          if (message.data !== undefined || message.id !== undefined) yield message;
          message = {};
        } else if (!line.startsWith(':')) readField(message, line);
        newline = buffer.search(/\r\n|\r|\n/);
      }
    }
  } finally {
    // Stops the download when the caller stops reading early.
    await reader.cancel().catch(() => undefined);
  }
}

function readField(message: ServerSentEvent, line: string): void {
  const colon = line.indexOf(':');
  const field = colon < 0 ? line : line.slice(0, colon);
  const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
  if (field === 'id') message.id = value;
  else if (field === 'event') message.event = value;
  else if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
}
