/**
 * The knowledge base as an extension: `rag_add` (ask) and `rag_search` (allow, `source:line`
 * citations), `/rag` (sources, chunks, size), `/rag add <src>…` with progress, `/rag remove
 * <src>`, `/rag search <q>`. Sources must be inside the root or http(s) URLs (fetched with the
 * fetch tool's address rules and `fetch.allowHosts`).
 */
import { isUrl, listFiles, readSourceFile, readUrl, type SourceItem } from '../rag/sources.js';
import type { AddResult, RagHit, RagStore } from '../rag/store.js';
import { type Tool, ToolError } from '../tools/types.js';
import { visible, visibleLine } from '../util/terminal-text.js';
import type { Extension } from './types.js';

export interface RagOptions {
  store: RagStore;
  root: string;
  allowHosts: readonly string[];
}

export function ragExtension(options: RagOptions): Extension {
  const { store } = options;
  const addSources = async (
    sources: readonly string[],
    signal: AbortSignal,
    progress?: (done: number, total: number, result: AddResult) => void,
  ): Promise<AddResult[]> => {
    const plan: Array<{ url: string } | { file: string }> = [];
    for (const source of sources) {
      if (isUrl(source)) plan.push({ url: source });
      else for (const file of await listFiles(source, options.root, signal)) plan.push({ file });
    }
    async function* items(): AsyncGenerator<SourceItem> {
      for (const step of plan) {
        if (signal.aborted) return;
        if ('url' in step) {
          try {
            yield await readUrl(step.url, { root: options.root, allowHosts: options.allowHosts, signal });
          } catch (error) {
            yield { kind: 'skipped', key: step.url, reason: (error as Error).message };
          }
        } else yield await readSourceFile(options.root, step.file);
      }
    }
    let done = 0;
    return store.add(items(), (result) => progress?.(++done, plan.length, result));
  };

  const addTool: Tool = {
    name: 'rag_add',
    description:
      'Adds to the local knowledge base: a file, a folder, a glob (inside the project root) or an http(s) URL. ' +
      'Text is split into 800-char chunks for rag_search; files over 2 MB and binaries are skipped; unchanged and ' +
      'duplicate sources are skipped, a changed file is re-indexed.',
    parameters: {
      type: 'object',
      properties: { source: { type: 'string', description: 'Path, glob or URL.' } },
      required: ['source'],
      additionalProperties: false,
    },
    async describeApproval(args) {
      const source = typeof args.source === 'string' ? args.source : '';
      return {
        title: 'About to add to the knowledge base',
        detail: source,
        kind: isUrl(source) ? 'url' : 'generic',
      };
    },
    async run(args, ctx) {
      const source = typeof args.source === 'string' ? args.source.trim() : '';
      if (source === '') throw new ToolError('rag_add: "source" is empty');
      try {
        return summarise(await addSources([source], ctx.signal));
      } catch (error) {
        throw new ToolError(`rag_add: ${(error as Error).message}`);
      }
    },
  };
  const searchTool: Tool = {
    name: 'rag_search',
    description:
      'Searches the local knowledge base (BM25) and returns the best chunks, each with a source:line citation.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many chunks (default 4).' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async run(args) {
      const query = typeof args.query === 'string' ? args.query : '';
      if (query.trim() === '') throw new ToolError('rag_search: "query" is empty');
      const limit = typeof args.limit === 'number' ? Math.min(20, Math.max(1, Math.floor(args.limit))) : 4;
      const hits = await store.search(query, limit);
      if (hits.length === 0)
        return store.stats.sources === 0
          ? 'the knowledge base is empty (rag_add adds sources)'
          : 'no chunk matches';
      return hits.map((hit) => `[${cite(hit)}] (score ${hit.score.toFixed(2)})\n${hit.text}`).join('\n\n');
    },
  };

  return {
    name: 'rag',
    setup(host) {
      host.tools.add(addTool, 'ask');
      host.tools.add(searchTool, 'allow');
      host.commands.add({
        name: 'rag',
        usage: '/rag [add <src>… | remove <src> | search <query>]',
        description: 'the knowledge base: list sources, add files/folders/globs/URLs, remove, search',
        run: async (args, ctx) => {
          const [sub, ...rest] = args;
          try {
            if (sub === 'add') {
              if (rest.length === 0) return ctx.print('usage: /rag add <file|folder|glob|url>…', 'error');
              const results = await addSources(rest, ctx.signal, (done, total, result) =>
                ctx.print(`${bar(done, total)} ${done}/${total} ${visibleLine(describeResult(result))}`),
              );
              ctx.print(summarise(results));
              return;
            }
            if (sub === 'remove') {
              if (rest.length === 0) return ctx.print('usage: /rag remove <source>', 'error');
              const gone = await store.remove(rest.join(' '));
              ctx.print(
                gone.length === 0
                  ? `no source ${visible(rest.join(' '))} in the knowledge base`
                  : `removed ${gone.map(visible).join(', ')}`,
              );
              return;
            }
            if (sub === 'search') {
              const query = rest.join(' ');
              if (!query) return ctx.print('usage: /rag search <query>', 'error');
              const hits = await store.search(query, 4);
              ctx.print(
                hits.length === 0
                  ? 'no chunk matches'
                  : hits
                      .map(
                        (hit) =>
                          `${hit.score.toFixed(2)}  ${visible(cite(hit))}  ${visibleLine(hit.text.slice(0, 100))}`,
                      )
                      .join('\n'),
              );
              return;
            }
            await store.load();
            const { sources, chunks, bytes } = store.stats;
            const lines = [
              `knowledge base: ${sources} sources, ${chunks} chunks, ${kb(bytes)} of text, ${kb(await store.diskBytes())} on disk`,
            ];
            for (const s of store.list())
              lines.push(`  ${visible(s.source)}  ${s.chunks} chunks, ${kb(s.bytes)}`);
            ctx.print(lines.join('\n'));
          } catch (error) {
            ctx.print(`rag: ${visible((error as Error).message)}`, 'error');
          }
        },
      });
    },
  };
}

function cite(hit: RagHit): string {
  return hit.line === hit.endLine ? `${hit.source}:${hit.line}` : `${hit.source}:${hit.line}-${hit.endLine}`;
}

function kb(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function bar(done: number, total: number): string {
  const width = 20;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function describeResult(result: AddResult): string {
  switch (result.kind) {
    case 'indexed':
      return `${result.replaced ? 're-indexed' : 'indexed'} ${result.source} (${result.chunks} chunk${result.chunks === 1 ? '' : 's'})`;
    case 'unchanged':
      return `unchanged ${result.source}`;
    case 'duplicate':
      return `skipped ${result.source}: same content as ${result.of}`;
    case 'skipped':
      return `skipped ${result.source}: ${result.reason}`;
  }
}

function summarise(results: readonly AddResult[]): string {
  if (results.length === 0) return 'nothing to add (no matching files)';
  const count = (kind: AddResult['kind']) => results.filter((r) => r.kind === kind).length;
  const head = `knowledge base: ${count('indexed')} indexed, ${count('unchanged')} unchanged, ${count('duplicate')} duplicate, ${count('skipped')} skipped`;
  return [head, ...results.map(describeResult)].slice(0, 51).join('\n');
}
