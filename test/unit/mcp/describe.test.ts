/**
 * What `mcp get` prints of a remote server's address (src/mcp/describe.ts): the URL as mcp.json
 * writes it, with its userinfo, query values and fragment masked unless they are only `${VAR}`
 * references, so a credential written into the file itself is not printed either.
 */
import { describe, expect, it } from 'vitest';
import { describeDefinition, maskedUrl } from '../../../src/mcp/describe.js';
import type { McpServerDefinition } from '../../../src/mcp/server-definition.js';

describe('maskedUrl', () => {
  it('masks userinfo, query values and the fragment, and keeps the rest as written', () => {
    expect(maskedUrl('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(maskedUrl('https://user:pw-123@mcp.example.com/mcp')).toBe('https://***@mcp.example.com/mcp');
    expect(maskedUrl('https://tok3n@host/x')).toBe('https://***@host/x');
    expect(maskedUrl('https://host/mcp?key=abc&mode=fast')).toBe('https://host/mcp?key=***&mode=***');
    expect(maskedUrl('https://host/mcp?sk-bare-token')).toBe('https://host/mcp?***');
    expect(maskedUrl('https://host/mcp#frag-secret')).toBe('https://host/mcp#***');
    // Only \${VAR} references: nothing written out to hide, and they say where the value comes from.
    expect(maskedUrl('https://${U}:${P}@${HOST}/mcp/${PATH_KEY}?k=${KEY}&d=${KEY:-x}')).toBe(
      'https://${U}:${P}@${HOST}/mcp/${PATH_KEY}?k=${KEY}&d=***',
    );
  });

  it('is what the server details show', () => {
    const definition = {
      name: 'remote',
      transport: 'http',
      url: 'https://user:expanded-pw@host/mcp?key=expanded',
      written: { url: 'https://user:${PW}@host/mcp?key=literal-key&t=${TOKEN}' },
      headers: { Authorization: 'Bearer x' },
      file: '/p/.geekagent/mcp.json',
      source: 'project',
      timeoutMs: 1000,
      startupTimeoutMs: 1000,
    } as unknown as McpServerDefinition;
    const text = describeDefinition(definition).join('\n');
    expect(text).toContain('url: https://***@host/mcp?key=***&t=${TOKEN}');
    expect(text).not.toMatch(/expanded|literal-key|user|PW/);
    expect(text).toContain('headers: Authorization (values not shown)');
  });
});
