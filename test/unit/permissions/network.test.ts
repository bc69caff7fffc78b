import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  embeddedIPv4,
  FetchAllowList,
  isPrivateName,
  parseAllowEntry,
} from '../../../src/permissions/network.js';

describe('classifyAddress', () => {
  it('names every non-public IPv4 range', () => {
    const cases: Array<[string, string | undefined]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.20.30.40', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.1.1', 'link-local'],
      ['169.254.169.254', 'cloud metadata'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['100.127.255.255', 'carrier-grade NAT'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['100.128.0.1', undefined],
      ['93.184.215.14', undefined],
    ];
    for (const [address, kind] of cases) expect(classifyAddress(address), address).toBe(kind);
  });

  it('sees IPv4 inside IPv6 (mapped, NAT64, 6to4) and names the IPv6 ranges', () => {
    const cases: Array<[string, string | undefined]> = [
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:a9fe:a9fe', 'cloud metadata'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::808:808', undefined],
      ['2002:c0a8:101::1', 'private'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['::7f00:1', 'reserved'],
      ['fd00:ec2::254', 'cloud metadata'],
      ['fd12:3456::1', 'private'],
      ['fe80::1', 'link-local'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'reserved'],
      ['2606:4700:4700::1111', undefined],
    ];
    for (const [address, kind] of cases) expect(classifyAddress(address), address).toBe(kind);
    expect(embeddedIPv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIPv4('2606:4700::1')).toBeUndefined();
    expect(classifyAddress('example.com')).toBeUndefined();
  });

  it('knows names that are local by definition', () => {
    for (const name of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', 'metadata']) {
      expect(isPrivateName(name), name).toBe(true);
    }
    expect(isPrivateName('example.com')).toBe(false);
    expect(isPrivateName('notlocalhost.com')).toBe(false);
  });
});

describe('fetch.allowHosts', () => {
  it('matches names, IPs and ranges, with an optional port', () => {
    const list = new FetchAllowList([
      'Intranet.Example',
      'localhost:8080',
      '10.0.0.5',
      '[::1]:3000',
      '192.168.0.0/16',
    ]);
    expect(list.allowsHost('intranet.example', 443)).toBe(true);
    expect(list.allowsHost('localhost', 8080)).toBe(true);
    expect(list.allowsHost('localhost', 8081)).toBe(false);
    expect(list.allowsHost('10.0.0.5', 80)).toBe(true);
    expect(list.allowsAddress('10.0.0.5', 1234)).toBe(true);
    expect(list.allowsAddress('10.0.0.6', 80)).toBe(false);
    expect(list.allowsAddress('::1', 3000)).toBe(true);
    expect(list.allowsAddress('::1', 3001)).toBe(false);
    expect(list.allowsAddress('192.168.44.2', 80)).toBe(true);
    expect(list.allowsAddress('::ffff:192.168.44.2', 80)).toBe(true);
    expect(new FetchAllowList(['0x7f.1']).allowsAddress('127.0.0.1', 80)).toBe(true);
  });

  it('explains an entry it cannot read', () => {
    expect(parseAllowEntry('')).toBe('"" is empty');
    expect(parseAllowEntry('http://x/')).toBe('"http://x/" is not a host, host:port, IP or CIDR range');
    expect(parseAllowEntry('x:0')).toBe('"x:0" has a port outside 1-65535');
    expect(parseAllowEntry('10.0.0.0/33')).toBe('"10.0.0.0/33" is not a valid CIDR range');
    expect(parseAllowEntry('[example.com]:80')).toBe(
      '"[example.com]:80" is not a host, host:port, IP or CIDR range',
    );
    expect(() => new FetchAllowList(['a b'])).toThrow('fetch.allowHosts: "a b" is not a host');
  });
});
