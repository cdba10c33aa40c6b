import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loggerRedaction } from '../../src/app.js';

/** A logger configured like server.ts's, at info level, writing into memory for inspection. */
export function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { logger: pino({ level: 'info', redact: loggerRedaction }, stream), text: () => lines.join('') };
}
