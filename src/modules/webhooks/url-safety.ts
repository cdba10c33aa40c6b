import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// D69: a webhook URL must be https:// and must not lead to loopback, private, link-local or
// metadata addresses. This is the check at registration; the same rule is applied again to the
// address each connection resolves to (request-filtering-agent in sender.ts), so that a name
// whose DNS answer changes after registration (rebinding) does not get through.

/** node's dns.lookup signature; tests hand in their own resolver. */
export type HostLookup = typeof dnsLookup;

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: lifts the https:// rule and the address rule. */
  allowPrivate: boolean;
  lookup?: HostLookup;
}

/**
 * ipaddr.js names every special range (private, loopback, linkLocal, uniqueLocal, reserved,
 * carrierGradeNat, unspecified, ...); only ordinary public addresses (`unicast`) are allowed,
 * as request-filtering-agent does at connection time. An IPv4-mapped IPv6 address is judged as
 * the IPv4 address it carries.
 */
function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

function resolveAll(lookup: HostLookup, hostname: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve((addresses as { address: string }[]).map((entry) => entry.address));
    });
  });
}

/**
 * Why the URL is refused, or undefined when it may be registered. Every address the host name
 * resolves to must be public: a name with one private answer among public ones is refused.
 */
export async function refusalOf(url: string, policy: UrlPolicy): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (policy.allowPrivate) {
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? undefined : 'must be https://';
  }
  if (parsed.protocol !== 'https:') return 'must be https://';
  // URL keeps the brackets of an IPv6 host.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return isPublicAddress(host) ? undefined : 'must not be a private address';
  let addresses: string[];
  try {
    addresses = await resolveAll(policy.lookup ?? dnsLookup, host);
  } catch {
    return 'its host name does not resolve';
  }
  if (addresses.length === 0) return 'its host name does not resolve';
  return addresses.every(isPublicAddress) ? undefined : 'must not resolve to a private address';
}
