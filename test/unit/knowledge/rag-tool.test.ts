/**
 * The model's `rag_add` tool reports progress as it indexes a folder (files done of the total,
 * with the file at hand), on the same channel as an MCP tool's progress.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExtensionSetup } from '../../../src/extensions/types.js';
import { ragExtension } from '../../../src/rag/feature/extension.js';
import { RagStore } from '../../../src/rag/store.js';
import type { Tool, ToolProgress } from '../../../src/tools/types.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-rag-tool-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The extension's tools, registered through the part of the seam they use. */
async function ragTools(): Promise<Map<string, Tool>> {
  const tools = new Map<string, Tool>();
  const ignore = () => undefined;
  const host = {
    tools: { add: (tool: Tool) => tools.set(tool.name, tool), remove: ignore },
    commands: { add: ignore, remove: ignore, has: () => false },
    panel: ignore,
    hooks: {
      prompt: ignore,
      input: ignore,
      beforeRequest: ignore,
      event: ignore,
      toolFilter: ignore,
      toolDeferral: ignore,
    },
    report: ignore,
    changed: ignore,
    notice: ignore,
  } as unknown as ExtensionSetup;
  await ragExtension({ store: new RagStore(root), root, allowHosts: [] }).setup(host);
  return tools;
}

describe('rag_add', () => {
  it('reports each file done of the total while it indexes a folder', async () => {
    await mkdir(path.join(root, 'docs'));
    for (const name of ['a.md', 'b.md', 'c.md'])
      await writeFile(path.join(root, 'docs', name), `# ${name}\nSome notes about ${name}.\n`);
    const add = (await ragTools()).get('rag_add') as Tool;
    const reports: ToolProgress[] = [];
    const output = await add.run({ source: 'docs' }, {
      signal: new AbortController().signal,
      env: {},
      onProgress: (p: ToolProgress) => reports.push(p),
    } as unknown as Parameters<Tool['run']>[1]);
    expect(String(output)).toContain('3');
    expect(reports.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(reports.map((p) => path.basename(p.message ?? ''))).toEqual(['a.md', 'b.md', 'c.md']);
  });
});
