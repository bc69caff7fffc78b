/**
 * Which network addresses the `fetch` tool may reach: public addresses only, unless a host is on
 * the allow list (`"fetch": {"allowHosts": [...]}` in GeekAgent.json). Loopback, private,
 * link-local, carrier-grade NAT, cloud metadata, unspecified, multicast, broadcast and reserved
 * addresses are refused in every notation, IPv4-mapped and NAT64 IPv6 forms included.
 */
import { BlockList, isIP } from 'node:net';

/** What kind of non-public address an IP is, or undefined for a public one. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'cloud metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const V4: ReadonlyArray<readonly [string, number, AddressKind]> = [
  // Before link-local: the more telling name wins.
  ['169.254.169.254', 32, 'cloud metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6: ReadonlyArray<readonly [string, number, AddressKind]> = [
  ['fd00:ec2::254', 128, 'cloud metadata'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // Deprecated IPv4-compatible addresses (::a.b.c.d): nothing public lives there.
  ['::', 96, 'reserved'],
  ['100::', 64, 'reserved'],
  ['2001::', 32, 'reserved'], // Teredo: tunnels to an address we cannot check
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

/** Names that are never public whatever DNS says (checked before resolving, for a clear message). */
const PRIVATE_NAMES = /^(localhost|.+\.localhost|metadata\.google\.internal|metadata\.goog|metadata)$/;

function blockListOf(
  rules: ReadonlyArray<readonly [string, number, AddressKind]>,
  family: 'ipv4' | 'ipv6',
): Array<[BlockList, AddressKind]> {
  return rules.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [list, kind];
  });
}

// Built on the first check, not at load: every start loads this module with the fetch tool, and
// some 25 BlockLists (with node:net's address classes) cost it ~1 ms.
let lists: { v4: Array<[BlockList, AddressKind]>; v6: Array<[BlockList, AddressKind]> } | undefined;
function blockLists(): { v4: Array<[BlockList, AddressKind]>; v6: Array<[BlockList, AddressKind]> } {
  lists ??= { v4: blockListOf(V4, 'ipv4'), v6: blockListOf(V6, 'ipv6') };
  return lists;
}

/** `address` is an IP literal (no brackets); names are not classified here. */
export function classifyAddress(address: string): AddressKind | undefined {
  const family = isIP(address);
  if (family === 4) return blockLists().v4.find(([list]) => list.check(address, 'ipv4'))?.[1];
  if (family !== 6) return undefined;
  const embedded = embeddedIPv4(address);
  if (embedded !== undefined) return classifyAddress(embedded);
  return blockLists().v6.find(([list]) => list.check(address, 'ipv6'))?.[1];
}

/**
 * The IPv4 address inside an IPv6 form that reaches it: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002:AABB:CCDD::).
 */
export function embeddedIPv4(address: string): string | undefined {
  const words = ipv6Words(address);
  if (!words) return undefined;
  const low = `${words[6]! >> 8}.${words[6]! & 255}.${words[7]! >> 8}.${words[7]! & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return low;
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return low;
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return low;
  if (words[0] === 0x2002) return `${words[1]! >> 8}.${words[1]! & 255}.${words[2]! >> 8}.${words[2]! & 255}`;
  return undefined;
}

/** The eight 16-bit words of an IPv6 address, or undefined when it is not one. */
function ipv6Words(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '');
  // A dotted tail (::ffff:127.0.0.1) becomes two hex words.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const middle = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  const words = [...front, ...middle, ...back];
  return words.length === 8 ? words : undefined;
}

/** A name that is private by definition, whatever it resolves to. */
export function isPrivateName(hostname: string): boolean {
  return PRIVATE_NAMES.test(hostname.toLowerCase().replace(/\.$/, ''));
}

interface AllowEntry {
  /** Lower-case host name, or an IP literal; undefined for a CIDR entry. */
  host?: string;
  cidr?: BlockList;
  port?: number;
}

/**
 * The `fetch.allowHosts` list: `name`, `name:port`, an IP (`10.0.0.5`, `::1`, `[::1]:8080`) or a
 * CIDR range (`10.0.0.0/8`, `fd00::/8`). A name lets through whatever it resolves to; an IP or
 * range lets through that address whatever name led to it. A port, when given, must match too.
 */
export class FetchAllowList {
  private readonly entries: AllowEntry[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map((entry) => {
      const parsed = parseAllowEntry(entry);
      if (typeof parsed === 'string') throw new Error(`fetch.allowHosts: ${parsed}`);
      return parsed;
    });
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** Whether the URL's host (a name or an IP literal, no brackets) is allowed by name. */
  allowsHost(hostname: string, port: number): boolean {
    const host = normaliseHost(hostname);
    return this.entries.some(
      (entry) => entry.host === host && (entry.port === undefined || entry.port === port),
    );
  }

  /** Whether a resolved address is allowed (by an IP or range entry). */
  allowsAddress(address: string, port: number): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return this.entries.some(
      (entry) =>
        (entry.port === undefined || entry.port === port) &&
        (entry.host === normaliseHost(address) || entry.cidr?.check(address, family) === true),
    );
  }
}

/** An entry, or the reason it cannot be one (for the config error). */
export function parseAllowEntry(raw: string): AllowEntry | string {
  const text = raw.trim();
  const bad = (why: string) => `${JSON.stringify(raw)} ${why}`;
  if (text === '') return bad('is empty');
  const cidr = /^\[?([0-9a-fA-F:.]+)\]?\/(\d{1,3})$/.exec(text);
  if (cidr) {
    const [, network = '', bits = ''] = cidr;
    const family = isIP(network);
    const prefix = Number(bits);
    if (family === 0 || prefix > (family === 4 ? 32 : 128)) return bad('is not a valid CIDR range');
    const list = new BlockList();
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return { cidr: list };
  }
  if (isIP(text) === 6) return { host: normaliseHost(text) };
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:/\s[\]]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (!match) return bad('is not a host, host:port, IP or CIDR range');
  const [, host = '', portText] = match;
  if (bracketed && isIP(host) !== 6) return bad('has brackets around something that is not an IPv6 address');
  if (portText !== undefined) {
    const port = Number(portText);
    if (!(port >= 1 && port <= 65535)) return bad('has a port outside 1-65535');
    return { host: normaliseHost(host), port };
  }
  return { host: normaliseHost(host) };
}

/** Lower case, no trailing dot, IPv6 in the canonical form the URL parser uses. */
function normaliseHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) === 6) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  if (isIP(bare) === 4) return bare;
  // Names go through the URL parser too, so `0x7f.1` in the list means what it means in a URL.
  try {
    return new URL(`http://${bare}/`).hostname.replace(/\.$/, '');
  } catch {
    return bare.replace(/\.$/, '');
  }
}
