import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger.js';

/** The process logger of server.ts, at info level, writing into memory for inspection. */
export function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { logger: createLogger({ LOG_LEVEL: 'info' }, stream), text: () => lines.join('') };
}
