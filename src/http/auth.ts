import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectSettings } from '../core/context.js';
import { AppError } from '../core/errors.js';

interface AuthContext {
  projectId: string;
  keyId: string;
  /** The raw bearer key: used only to derive per-key identities (hashed) such as rate-limit buckets. */
  apiKey: string;
  settings: ProjectSettings;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

function unauthorized(reply: FastifyReply, message: string): AppError {
  reply.header('www-authenticate', 'Bearer');
  return new AppError('UNAUTHORIZED', message);
}

/** D6: every API request needs a valid bearer key; the key decides the project (D46). */
export async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const header = request.headers.authorization;
  if (!header)
    throw unauthorized(reply, 'Missing Authorization header: send "Authorization: Bearer <API key>"');
  const match = BEARER.exec(header);
  if (!match) throw unauthorized(reply, 'Malformed Authorization header: expected "Bearer <API key>"');
  const owner = await request.server.services.projects.authenticate(match[1]!);
  if (!owner) throw unauthorized(reply, 'Unknown or revoked API key');
  request.auth = {
    projectId: owner.projectId,
    keyId: owner.keyId,
    apiKey: match[1]!,
    settings: owner.settings,
  };
}
