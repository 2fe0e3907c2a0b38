// Where webhooks may be sent. A target on a private, loopback, link-local or otherwise internal
// address would let anyone who may create a subscription make the service call into its own
// network (server-side request forgery), so such addresses are refused unless an operator allows
// them (WEBHOOKS_ALLOW_PRIVATE_TARGETS, set by the tests for their receiver on loopback). The check
// runs when a subscription is saved (a clear 422) and again on every connection, on the address
// actually connected to: a name that resolved to a public address at saving and to an internal one
// later (DNS rebinding) is refused then.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
] as const) {
  // Not ::ffff:0:0/96 (IPv4-mapped) nor 64:ff9b::/96 (NAT64): a BlockList matches plain IPv4
  // addresses against them too. Mapped addresses are checked as the IPv4 address they carry.
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether the address is one a webhook must not reach unless allowed. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
    return INTERNAL.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export class TargetRefused extends Error {}

/** Checks a target URL as a subscription is saved: its form, and the addresses its host has now. */
export async function checkTarget(url: string, allowInternal: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused('The url must be an absolute http or https URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TargetRefused('The url must be an http or https URL.');
  if (parsed.username || parsed.password) throw new TargetRefused('The url must not carry credentials; verify the signature instead.');
  if (allowInternal) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookupAll(host)).map((entry) => entry.address);
  } catch {
    throw new TargetRefused(`The url's host ${host} does not resolve.`);
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress)) {
    throw new TargetRefused('The url points to a private, loopback or link-local address, which webhooks may not reach.');
  }
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the delivery's connections that refuses internal addresses (unless allowed), so
 * that the address checked is the address connected to.
 */
export function guardedLookup(allowInternal: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = allowInternal ? addresses : addresses.filter((entry) => !isInternalAddress(entry.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to an internal address, which webhooks may not reach`), { code: 'EWEBHOOKTARGET' });
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
