import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nameServerTools, sanitizeName } from '../../../src/mcp/naming.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

function hash8(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
}

/** Deterministic shuffles (rotations and a reversal) — no randomness in tests. */
function orderings<T>(items: readonly T[]): T[][] {
  const rotations = items.map((_, shift) => [...items.slice(shift), ...items.slice(0, shift)]);
  return [...rotations, [...items].reverse()];
}

describe('sanitizeName', () => {
  it('replaces every character outside [a-zA-Z0-9_-] with _', () => {
    expect(sanitizeName('get.item')).toBe('get_item');
    expect(sanitizeName('a b/c:d@e')).toBe('a_b_c_d_e');
    expect(sanitizeName('keep-this_One9')).toBe('keep-this_One9');
  });

  it('turns one non-ASCII character into one _ (emoji included)', () => {
    expect(sanitizeName('café')).toBe('caf_');
    expect(sanitizeName('🎲roll')).toBe('_roll');
  });
});

describe('nameServerTools', () => {
  it('prefixes mcp_<server>_ and keeps input order', () => {
    const result = nameServerTools('demo', ['word_count', 'dice']);
    expect(result.tools).toEqual([
      { modelName: 'mcp_demo_word_count', originalName: 'word_count' },
      { modelName: 'mcp_demo_dice', originalName: 'dice' },
    ]);
    expect(result.collisions).toEqual([]);
  });

  it('sanitises odd characters in both server and tool names', () => {
    const [tool] = nameServerTools('my.server@2', ['read file']).tools;
    expect(tool?.modelName).toBe('mcp_my_server_2_read_file');
  });

  it('cuts an 80-character name to 64 with a stable hash suffix', () => {
    const long = `fetch_${'x'.repeat(74)}`;
    expect(long).toHaveLength(80);
    const first = nameServerTools('github', [long]).tools[0]!.modelName;
    expect(first).toHaveLength(64);
    expect(first).toMatch(VALID);
    expect(first.endsWith(`_${hash8('github', long)}`)).toBe(true);
    expect(first.startsWith('mcp_github_fetch_xxx')).toBe(true);
    expect(nameServerTools('github', ['other', long]).tools[1]!.modelName).toBe(first);
  });

  it('keeps names within 64 characters for a 64-character server name', () => {
    const server = 's'.repeat(64);
    const [tool] = nameServerTools(server, ['t']).tools;
    expect(tool!.modelName).toHaveLength(64);
    expect(tool!.modelName).toMatch(VALID);
  });

  it('gives two long names sharing a prefix different names', () => {
    const a = `${'y'.repeat(70)}_a`;
    const b = `${'y'.repeat(70)}_b`;
    const { tools, collisions } = nameServerTools('srv', [a, b]);
    expect(tools[0]!.modelName).not.toBe(tools[1]!.modelName);
    expect(tools.every((tool) => tool.modelName.length === 64)).toBe(true);
    expect(collisions).toEqual([]);
  });

  it('resolves collisions in favour of the tool already named that way', () => {
    // 'get item' < 'get.item' < 'get_item' by code unit, but get_item's own name is the plain name:
    // a rule written as mcp_shop_get_item stays with it whatever decoys the server lists.
    const { tools, collisions } = nameServerTools('shop', ['get item', 'get.item', 'get_item']);
    const byOriginal = Object.fromEntries(tools.map((tool) => [tool.originalName, tool.modelName]));
    expect(byOriginal.get_item).toBe('mcp_shop_get_item');
    expect(byOriginal['get item']).toBe(`mcp_shop_get_item_${hash8('shop', 'get item')}`);
    expect(byOriginal['get.item']).toBe(`mcp_shop_get_item_${hash8('shop', 'get.item')}`);
    expect(collisions).toEqual([
      {
        modelName: 'mcp_shop_get_item',
        originalNames: ['get item', 'get.item', 'get_item'],
        kept: 'get_item',
      },
    ]);
  });

  it('without a tool named that way, the first by original name keeps the plain name', () => {
    const { tools, collisions } = nameServerTools('shop', ['get.item', 'get item']);
    const byOriginal = Object.fromEntries(tools.map((tool) => [tool.originalName, tool.modelName]));
    expect(byOriginal['get item']).toBe('mcp_shop_get_item');
    expect(byOriginal['get.item']).toBe(`mcp_shop_get_item_${hash8('shop', 'get.item')}`);
    expect(collisions).toEqual([
      { modelName: 'mcp_shop_get_item', originalNames: ['get item', 'get.item'], kept: 'get item' },
    ]);
  });

  it('gives the same names whatever order the server lists its tools in', () => {
    const names = [
      'get.item',
      'get_item',
      'list',
      `${'z'.repeat(70)}.x`,
      `${'z'.repeat(70)}_x`,
      'a-b',
      'a_b',
    ];
    const expected = new Map(nameServerTools('srv', names).tools.map((t) => [t.originalName, t.modelName]));
    const expectedCollisions = nameServerTools('srv', names).collisions;
    for (const order of orderings(names)) {
      const result = nameServerTools('srv', order);
      for (const tool of result.tools) expect(tool.modelName).toBe(expected.get(tool.originalName));
      expect(result.collisions).toEqual(expectedCollisions);
    }
  });

  it('produces unique valid names for a large set with many collisions', () => {
    const names = Array.from({ length: 200 }, (_, i) => [
      `tool.${i % 50}`,
      `tool_${i % 50}`,
      `tool ${i}`,
    ]).flat();
    const { tools } = nameServerTools('x', [...new Set(names)]);
    const modelNames = tools.map((tool) => tool.modelName);
    expect(new Set(modelNames).size).toBe(modelNames.length);
    expect(modelNames.every((name) => VALID.test(name))).toBe(true);
  });

  it('never lets a hashed name take another tool’s plain name', () => {
    // The tool literally named like the other's hashed form keeps its plain name; the hashed one moves on.
    const suffix = hash8('s', 'a.b');
    const { tools } = nameServerTools('s', ['a.b', 'a b', `a_b_${suffix}`]);
    const byOriginal = Object.fromEntries(tools.map((tool) => [tool.originalName, tool.modelName]));
    expect(byOriginal[`a_b_${suffix}`]).toBe(`mcp_s_a_b_${suffix}`);
    expect(byOriginal['a b']).toBe('mcp_s_a_b');
    expect(byOriginal['a.b']).toMatch(/^mcp_s_a_b_[0-9a-f]{16}$/);
    const modelNames = tools.map((tool) => tool.modelName);
    expect(new Set(modelNames).size).toBe(3);
  });

  it('falls back to a longer hash when the 8-character one is taken', () => {
    const suffix = hash8('s', 'a.b');
    const { tools } = nameServerTools('s', ['a.b', 'a_b', `a_b_${suffix}`]);
    expect(tools.find((tool) => tool.originalName === 'a_b')!.modelName).toBe('mcp_s_a_b');
    const hashed = tools.find((tool) => tool.originalName === 'a.b')!.modelName;
    expect(hashed).toMatch(/^mcp_s_a_b_[0-9a-f]{16}$/);
    expect(tools.find((tool) => tool.originalName === `a_b_${suffix}`)!.modelName).toBe(
      `mcp_s_a_b_${suffix}`,
    );
  });

  it('hashes a name that could also be another configured server’s, on both sides, so neither can borrow it', () => {
    // Server gh's tool x_read and server gh_x's tool read both sanitise to mcp_gh_x_read.
    const gh = nameServerTools('gh', ['x_read', 'list'], ['gh_x']);
    const ghX = nameServerTools('gh_x', ['read'], ['gh']);
    expect(gh.tools).toEqual([
      { modelName: `mcp_gh_x_read_${hash8('gh', 'x_read')}`, originalName: 'x_read' },
      // Nothing of gh_x could be called mcp_gh_list: it keeps its plain name.
      { modelName: 'mcp_gh_list', originalName: 'list' },
    ]);
    expect(ghX.tools).toEqual([
      { modelName: `mcp_gh_x_read_${hash8('gh_x', 'read')}`, originalName: 'read' },
    ]);
    expect(gh.contested).toEqual([{ otherServer: 'gh_x', originalNames: ['x_read'] }]);
    expect(ghX.contested).toEqual([{ otherServer: 'gh', originalNames: ['read'] }]);
    // Without the other server configured, the plain names come back (and the pins guard them).
    expect(nameServerTools('gh_x', ['read']).tools[0]!.modelName).toBe('mcp_gh_x_read');
    expect(nameServerTools('gh_x', ['read'], ['gh_x', 'github']).contested).toEqual([]);
  });

  it('hashes every tool of two servers whose names sanitise alike', () => {
    const dotted = nameServerTools('de.mo', ['dice'], ['de_mo']).tools[0]!.modelName;
    const plain = nameServerTools('de_mo', ['dice'], ['de.mo']).tools[0]!.modelName;
    expect(dotted).toBe(`mcp_de_mo_dice_${hash8('de.mo', 'dice')}`);
    expect(plain).toBe(`mcp_de_mo_dice_${hash8('de_mo', 'dice')}`);
  });
});
