import { BlockList, isIP } from 'node:net';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from '../core/errors.js';
import { parseAllowListEntry } from '../lib/allow-list-entry.js';

// D45: a project's IP allow-list, checked against the caller address Fastify derives from the
// socket and, behind trusted proxies, X-Forwarded-For.

/** A compiled allow-list; stored entries were validated on the way in (admin API), others match nothing. */
function compile(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const text of entries) {
    const entry = parseAllowListEntry(text);
    if (!entry) continue;
    if (entry.prefix === undefined) list.addAddress(entry.address, entry.family);
    else list.addSubnet(entry.address, entry.prefix, entry.family);
  }
  return list;
}

// Settings arrive fresh from the database on every request; compiling is cheap but not free, so
// the compiled lists of recently seen allow-lists are kept (bounded, oldest dropped first).
const compiled = new Map<string, BlockList>();
const COMPILED_CACHE_SIZE = 1000;

function compiledList(entries: readonly string[]): BlockList {
  const cacheKey = entries.join('\n');
  let list = compiled.get(cacheKey);
  if (!list) {
    list = compile(entries);
    if (compiled.size >= COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
    compiled.set(cacheKey, list);
  }
  return list;
}

/** Whether `ip` may call a project with this allow-list (empty or absent: everyone may, D8). */
export function isAddressAllowed(entries: readonly string[] | undefined, ip: string): boolean {
  if (!entries || entries.length === 0) return true;
  const version = isIP(ip);
  if (version === 0) return false;
  // BlockList matches IPv4-mapped IPv6 addresses (::ffff:1.2.3.4, as dual-stack sockets report
  // IPv4 callers) against IPv4 entries too.
  return compiledList(entries).check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

/** D45: refuses a caller outside its project's allow-list. Runs after `authenticate` (REST and MCP). */
export async function enforceIpAllowList(request: FastifyRequest): Promise<void> {
  if (!isAddressAllowed(request.auth.settings.ipAllowList, request.ip)) {
    throw new AppError('IP_NOT_ALLOWED', `Requests from ${request.ip} are not allowed for this project`);
  }
}

/**
 * Fastify's trustProxy from TRUST_PROXY (D45). The caller address must never be a client-chosen
 * left-most X-Forwarded-For entry, so:
 * - a list of addresses/CIDRs trusts those proxies: the address is the right-most entry that is
 *   not one of them (proxy-addr);
 * - a hop count N trusts the N nearest hops (Fastify 5 itself ignores X-Forwarded-For for a
 *   plain number, so it is given as a function);
 * - `true` means "one proxy in front of us" (hop count 1), not Fastify's "trust every hop",
 *   which would hand the choice of address to the client.
 */
export function trustProxyOption(value: string | undefined): FastifyServerOptions['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  const hops = value === 'true' ? 1 : /^\d+$/.test(value) ? Number(value) : undefined;
  if (hops !== undefined) return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
