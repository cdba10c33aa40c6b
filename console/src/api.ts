// The one file that imports the first-party client: every page reaches Parley through it, over
// the public API, from the origin that served the page.
import { Parley, ParleyError } from '@parley/client';
import type { Credentials } from './session.js';

export type { Dialogue, Memory, Message, ParleyEvent, components } from '@parley/client';
export type { Parley };

/** A client for the signed-in project (and, with the admin token, the admin API). */
export function connect(credentials: Credentials): Parley {
  return new Parley({
    baseUrl: window.location.origin,
    apiKey: credentials.apiKey,
    adminToken: credentials.adminToken,
    maxRetries: 1,
  });
}

/**
 * A message exactly as the API returns it: the text of GET /api/v1/message/{id}, read through the
 * client with a fetch that keeps the body it received.
 */
export async function rawMessage(
  credentials: Credentials,
  message: { id: string; dialogueId: string; namespace: string | null },
): Promise<string> {
  let body = '';
  const client = new Parley({
    baseUrl: window.location.origin,
    apiKey: credentials.apiKey,
    maxRetries: 1,
    fetch: async (request) => {
      const response = await window.fetch(request);
      body = await response.clone().text();
      return response;
    },
  });
  await client.messages.get(message.id, {
    dialogueId: message.dialogueId,
    ...(message.namespace ? { namespace: message.namespace } : {}),
  });
  return body;
}

/** What to tell the user about a failed call: the API's own message and code when it sent one. */
export function describeError(error: unknown): string {
  if (error instanceof ParleyError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
