/**
 * The knowledge base as an extension: `rag_add` (ask) and `rag_search` (allow, `source:line`
 * citations), `/rag` (sources, chunks, size), `/rag add <src>…` with progress, `/rag remove
 * <src>`, `/rag search <q>`. Sources must be inside the root or http(s) URLs (fetched with the
 * fetch tool's address rules and `fetch.allowHosts`).
 */

import type { CommandContext } from '../../commands/types.js';
import type { Extension } from '../../extensions/types.js';
import { toolArguments } from '../../tools/arguments.js';
import { type Tool, ToolError } from '../../tools/types.js';
import * as z from '../../util/schema.js';
import { visible, visibleLine } from '../../util/terminal-text.js';
import { type AddProgress, formatProgress } from '../progress.js';
import { isUrl, listFiles, readSourceFile, readUrl, type SourceItem } from '../sources.js';
import type { AddResult, RagHit, RagStore } from '../store.js';

const PROGRESS_MS = 100;

export interface RagOptions {
  store: RagStore;
  root: string;
  allowHosts: readonly string[];
}

const addArgs = toolArguments('rag_add', () =>
  z.object({ source: z.string().check(z.describe('Path, glob or URL.')) }),
);

const searchArgs = toolArguments('rag_search', () =>
  z.object({
    query: z.string(),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(20), z.describe('How many chunks (default 4).'))),
  }),
);

export function ragExtension(options: RagOptions): Extension {
  const { store } = options;
  const addSources = async (
    sources: readonly string[],
    signal: AbortSignal,
    progress?: (p: AddProgress) => void,
  ): Promise<AddResult[]> => {
    const plan: Array<{ url: string } | { file: string }> = [];
    for (const source of sources) {
      if (isUrl(source)) plan.push({ url: source });
      else for (const file of await listFiles(source, options.root, signal)) plan.push({ file });
    }
    const state: AddProgress = { done: 0, total: plan.length, bytes: 0, current: undefined };
    // Documents are read one at a time as the store takes them: memory holds one, not the corpus.
    async function* items(): AsyncGenerator<SourceItem> {
      for (const step of plan) {
        if (signal.aborted) return;
        state.current = 'url' in step ? step.url : step.file;
        let item: SourceItem;
        if ('url' in step) {
          try {
            item = await readUrl(step.url, { root: options.root, allowHosts: options.allowHosts, signal });
          } catch (error) {
            item = { kind: 'skipped', key: step.url, reason: (error as Error).message };
          }
        } else item = await readSourceFile(options.root, step.file);
        if (item.kind === 'text') state.bytes += item.bytes;
        yield item;
      }
    }
    return store.add(items(), () => {
      state.done++;
      progress?.(state);
    });
  };

  const addTool: Tool = {
    name: 'rag_add',
    description:
      'Adds to the local knowledge base: a file, a folder, a glob (inside the project root) or an http(s) URL. ' +
      'Text is split into 800-char chunks for rag_search; files over 2 MB and binaries are skipped; unchanged and ' +
      'duplicate sources are skipped, a changed file is re-indexed.',
    get parameters() {
      return addArgs.parameters;
    },
    async describeApproval(args) {
      const { source } = addArgs.parse(args);
      return {
        title: 'About to add to the knowledge base',
        detail: source,
        kind: isUrl(source) ? 'url' : 'generic',
      };
    },
    async run(args, ctx) {
      const source = addArgs.parse(args).source.trim();
      if (source === '') throw new ToolError('rag_add: "source" is empty');
      try {
        // A folder can take minutes: the call's progress line shows files done of the total.
        const report = (p: AddProgress) =>
          ctx.onProgress?.({ progress: p.done, total: p.total, message: p.current });
        return summarise(await addSources([source], ctx.signal, report));
      } catch (error) {
        throw new ToolError(`rag_add: ${(error as Error).message}`);
      }
    },
  };
  const searchTool: Tool = {
    name: 'rag_search',
    description:
      'Searches the local knowledge base (BM25) and returns the best chunks, each with a source:line citation.',
    get parameters() {
      return searchArgs.parameters;
    },
    async run(args) {
      const { query, limit = 4 } = searchArgs.parse(args);
      if (query.trim() === '') throw new ToolError('rag_search: "query" is empty');
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
              const show = throttled(ctx);
              let results: AddResult[];
              try {
                results = await addSources(rest, ctx.signal, show.update);
              } finally {
                // Ends the line even when the add fails (a terminal's redrawn line gets its newline).
                show.end();
              }
              ctx.print(summarise(results));
              for (const note of store.takeNotes()) ctx.print(note);
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
              for (const note of store.takeNotes()) ctx.print(note);
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
            if (store.storeFormat === 1)
              lines.push(
                '  stored in format 1 (a file per source); the next /rag add or /rag remove moves it to format 2',
              );
            for (const note of store.takeNotes()) lines.push(`  ${note}`);
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

/** Progress at most every 100 ms (a 10,000-file add would flood a face), and always the last. */
function throttled(ctx: CommandContext): { update: (p: AddProgress) => void; end: () => void } {
  let last: AddProgress | undefined;
  let shownAt = 0;
  return {
    update(p) {
      last = p;
      const now = Date.now();
      if (now - shownAt < PROGRESS_MS) return;
      shownAt = now;
      ctx.progress?.(formatProgress(p), false);
    },
    end() {
      if (last) ctx.progress?.(formatProgress(last), true);
    },
  };
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
