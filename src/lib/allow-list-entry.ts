import { isIP } from 'node:net';

// The entries of an IP allow-list (D45), as the admin API and TRUST_PROXY accept them.

type Family = 'ipv4' | 'ipv6';

export interface AllowListEntry {
  address: string;
  family: Family;
  /** Prefix length for a CIDR entry; undefined for a single address. */
  prefix?: number;
}

/** Parses one allow-list entry (`1.2.3.4`, `10.0.0.0/8`, `::1`, `2001:db8::/32`); undefined when invalid. */
export function parseAllowListEntry(entry: string): AllowListEntry | undefined {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return undefined;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  if (slash === -1) return { address, family };
  const prefixText = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (family === 'ipv4' ? 32 : 128)) return undefined;
  return { address, family, prefix };
}

export const ALLOW_LIST_ENTRY_HINT =
  'must be an IPv4 or IPv6 address, or a CIDR such as 10.0.0.0/8 or 2001:db8::/32';
