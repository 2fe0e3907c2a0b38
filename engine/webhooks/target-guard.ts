// Where webhooks may be sent. A target on a private, loopback, link-local or otherwise internal
// address would let anyone who may create a subscription make the service call into its own
// network (server-side request forgery), so only public addresses are reached by default. An
// operator may open loopback (WEBHOOKS_ALLOW_LOOPBACK_TARGETS, for a receiver on the same machine)
// or private networks and loopback (WEBHOOKS_ALLOW_PRIVATE_TARGETS); link-local addresses, where
// cloud metadata services answer with the machine's credentials, and the cloud metadata addresses
// themselves are never reached, whatever the setting, nor unspecified, multicast and reserved ones.
// The check runs when a subscription is saved (a clear 422) and again on every connection, on the
// address actually connected to: a name that resolved to a public address at saving and to an
// internal one later (DNS rebinding) is refused then.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** What a webhook may reach: public addresses only, also loopback, or also private networks. */
export type TargetScope = 'public' | 'loopback' | 'private';

/** What an address is, for webhooks: `never` is refused whatever the scope. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'never';

function blockList(ipv4: ReadonlyArray<readonly [string, number]>, ipv6: ReadonlyArray<readonly [string, number]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, 'ipv4');
  // Not ::ffff:0:0/96 (IPv4-mapped): a BlockList matches an IPv4-mapped address against the
  // IPv4 subnets (and plain IPv4 addresses against that one).
  for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

const NEVER = blockList(
  [
    ['0.0.0.0', 8], // "this" network (0.0.0.0 reaches the machine itself)
    ['169.254.0.0', 16], // link-local: cloud metadata services (169.254.169.254)
    ['100.100.100.200', 32], // a cloud metadata service outside link-local (Alibaba)
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ],
  [
    ['::', 128],
    ['fe80::', 10], // link-local
    ['fd00:ec2::254', 128], // a cloud metadata service on IPv6 (AWS)
    ['ff00::', 8], // multicast
  ],
);

const LOOPBACK = blockList([['127.0.0.0', 8]], [['::1', 128]]);

const PRIVATE = blockList(
  [
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24], // documentation
    ['192.168.0.0', 16],
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  [
    ['fc00::', 7], // unique local
    ['fec0::', 10], // site-local (deprecated)
    ['64:ff9b:1::', 48], // local-use NAT64
    ['2001:db8::', 32], // documentation
  ],
);

/** The eight 16-bit groups of an IPv6 address (valid, as isIP says), without its zone. */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host: NAT64 (64:ff9b::/96) and the
 * deprecated IPv4-compatible form (::a.b.c.d). IPv4-mapped ones the block lists match themselves.
 */
function carriedIPv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  const compatible = groups.slice(0, 6).every((group) => group === 0) && groups[6] !== 0;
  if (!nat64 && !compatible) return undefined;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

/** What the address is; text that is not an address is `never`. */
export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return 'never';
  const carried = family === 6 ? carriedIPv4(address) : undefined;
  const [checked, type] = carried ? [carried, 'ipv4' as const] : [address.replace(/%.*$/, ''), family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (NEVER.check(checked, type)) return 'never';
  if (LOOPBACK.check(checked, type)) return 'loopback';
  if (PRIVATE.check(checked, type)) return 'private';
  return 'public';
}

/** Whether a webhook may reach the address with what the operator opened. */
export function mayReach(address: string, scope: TargetScope): boolean {
  const kind = addressKind(address);
  if (kind === 'public') return true;
  if (kind === 'loopback') return scope !== 'public';
  if (kind === 'private') return scope === 'private';
  return false;
}

/** Why a webhook may not reach the address. */
export function refusal(address: string): string {
  return addressKind(address) === 'never'
    ? 'The url points to a link-local, cloud metadata or reserved address, which webhooks never reach.'
    : 'The url points to a private or loopback address, which webhooks may not reach.';
}

export class TargetRefused extends Error {}

/**
 * Checks a target URL as a subscription is saved: its form, and the addresses its host has now.
 * Opened for development (a scope other than `public`), a name that does not resolve yet is
 * accepted: its addresses are checked on every connection anyway.
 */
export async function checkTarget(url: string, scope: TargetScope): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused('The url must be an absolute http or https URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TargetRefused('The url must be an http or https URL.');
  if (parsed.username || parsed.password) throw new TargetRefused('The url must not carry credentials; verify the signature instead.');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookupAll(host)).map((entry) => entry.address);
  } catch {
    if (scope !== 'public') return;
    throw new TargetRefused(`The url's host ${host} does not resolve.`);
  }
  if (addresses.length === 0) throw new TargetRefused(`The url's host ${host} does not resolve.`);
  const refused = addresses.find((address) => !mayReach(address, scope));
  if (refused !== undefined) throw new TargetRefused(refusal(refused));
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolve = (hostname: string, options: { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for the delivery's connections that keeps only the addresses a webhook may reach, so
 * that the address checked is the address connected to. `resolve` is the system's resolver.
 */
export function guardedLookup(scope: TargetScope, resolve: Resolve = dnsLookup) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((entry) => mayReach(entry.address, scope));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to an address webhooks may not reach`), { code: 'EWEBHOOKTARGET' });
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
