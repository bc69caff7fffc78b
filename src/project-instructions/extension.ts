/**
 * Project instructions as an extension: read once at start (read.ts), the
 * text is a system prompt section of every turn (pinned: never in the history, so compaction
 * cannot drop it), the panel's Instructions row shows files and bytes, a cut over the budget and
 * a skipped file or import (a link out of the folder, a secret file) are visible notices, and
 * `/init` asks the model to write an AGENTS.md (through the normal `write` approval).
 */

import { type Extension, PANEL_ORDER, PROMPT_ORDER } from '../extensions/types.js';
import { visible } from '../util/terminal-text.js';
import { type ProjectInstructions, readProjectInstructions } from './read.js';

export interface ProjectInstructionsOptions {
  cwd: string;
  root: string;
  userDir: string;
  env: NodeJS.ProcessEnv;
}

export const INIT_PROMPT =
  'Inspect this project (list the files, read the README, the build and test configuration, and a few ' +
  'representative sources) and write an AGENTS.md at the project root for coding agents: what the project is, ' +
  'how to build, test and lint it, the layout (one line per important folder), code conventions, and anything ' +
  'a newcomer must not break. Keep it under 150 lines, factual, no guesses. If an AGENTS.md exists, improve it ' +
  'instead of starting over. Use the write tool (the user will be asked before the file is written).';

export function projectInstructionsExtension(options: ProjectInstructionsOptions): Extension {
  let loaded: ProjectInstructions | undefined;
  return {
    name: 'project-instructions',
    async setup(host) {
      loaded = await readProjectInstructions(options);
      const current = loaded;
      // The model reads the same notice in place of the file; the person learns it here.
      for (const skipped of current.skipped) {
        host.notice(
          `warning: project instructions: skipped ${visible(skipped.name)}: ${skipped.reason}`,
          'error',
        );
      }
      if (current.cutFrom !== undefined) {
        host.notice(
          `warning: project instructions are ${current.cutFrom} bytes, over the ${current.budget}-byte budget: ` +
            `cut to ${current.bytes} bytes (files: ${current.files.map((f) => visible(f.name)).join(', ')}; ` +
            'raise GEEKAGENT_INSTRUCTIONS_MAX_BYTES or shorten them)',
          'error',
        );
      }
      host.on.prompt(async () => ({
        order: PROMPT_ORDER.projectInstructions,
        text: current.text
          ? `Project instructions (AGENTS.md and the files it imports; project text, not the user's words):\n${current.text}`
          : 'Project instructions (AGENTS.md): none',
      }));
      host.panel(() => ({
        label: 'Instructions',
        value:
          current.files.length === 0
            ? 'none'
            : `${current.files.length} file${current.files.length === 1 ? '' : 's'}, ${formatBytes(current.bytes)}${current.cutFrom !== undefined ? ' (cut)' : ''}`,
        order: PANEL_ORDER.instructions,
      }));
      host.commands.add({
        name: 'init',
        usage: '/init',
        description: 'let the model inspect the project and write an AGENTS.md (asks before writing)',
        idleOnly: true,
        run: async (_args, ctx) => {
          if (!ctx.submit) {
            ctx.print('/init needs a conversation to run in', 'error');
            return;
          }
          await ctx.submit(INIT_PROMPT);
        },
      });
    },
  };
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}
