// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are part of the URLs under test.
/**
 * Where a URL's text is cut for the MCP views and redaction (src/util/url-text.ts): userinfo up to
 * the authority's last `@`, the query from the first `?` outside the fragment, the fragment from the
 * first `#`; a URL with `${VAR}` in it (which may not parse) cut the same way; joined back whole.
 */
import { describe, expect, it } from 'vitest';
import { joinUrlText, splitUrlText } from '../../../src/util/url-text.js';

describe('splitUrlText', () => {
  it('cuts userinfo, address, query and fragment', () => {
    expect(splitUrlText('https://user:pw@host:8443/mcp?key=1&v=2#frag')).toEqual({
      scheme: 'https://',
      userinfo: 'user:pw',
      address: 'host:8443/mcp',
      query: 'key=1&v=2',
      fragment: 'frag',
    });
    expect(splitUrlText('http://host/mcp')).toEqual({ scheme: 'http://', address: 'host/mcp' });
  });

  it("takes the authority's last @, and no @ past the path, query or fragment", () => {
    expect(splitUrlText('https://a@b@host/x').userinfo).toBe('a@b');
    expect(splitUrlText('https://host/x@y').userinfo).toBeUndefined();
    expect(splitUrlText('https://host?to=a@b').userinfo).toBeUndefined();
    expect(splitUrlText('https://host#a@b')).toEqual({
      scheme: 'https://',
      address: 'host',
      fragment: 'a@b',
    });
  });

  it('finds no query inside the fragment', () => {
    expect(splitUrlText('https://host/p#a?b')).toEqual({
      scheme: 'https://',
      address: 'host/p',
      fragment: 'a?b',
    });
  });

  it('cuts a URL with ${VAR} references, which may not parse, the same way', () => {
    expect(splitUrlText('https://${U}:${P}@${HOST}/mcp?k=${KEY}')).toEqual({
      scheme: 'https://',
      userinfo: '${U}:${P}',
      address: '${HOST}/mcp',
      query: 'k=${KEY}',
    });
  });

  it('joins the parts back into the same text', () => {
    for (const url of [
      'https://u:p@h/x?q=1#f',
      'http://h',
      'h/x?',
      'https://h/#',
      'mailto:a@b',
      'https://@h/',
    ]) {
      expect(joinUrlText(splitUrlText(url))).toBe(url);
    }
  });
});
