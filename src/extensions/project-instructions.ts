/**
 * AGENTS.md as an extension: read once at start, its text is a system prompt section of every
 * turn (`Project instructions (AGENTS.md):`, or `none`), and the panel's Instructions row.
 */
import { readProjectInstructions } from '../config/project-instructions.js';
import { type Extension, PANEL_ORDER, PROMPT_ORDER } from './types.js';

export function projectInstructionsExtension(root: string): Extension {
  let text: string | undefined;
  return {
    name: 'project-instructions',
    async setup(host) {
      text = await readProjectInstructions(root);
      host.hooks.prompt(async () => ({
        order: PROMPT_ORDER.projectInstructions,
        text: text ? `Project instructions (AGENTS.md):\n${text}` : 'Project instructions (AGENTS.md): none',
      }));
      host.panel(() => ({
        label: 'Instructions',
        value: text === undefined ? 'none' : 'loaded',
        order: PANEL_ORDER.instructions,
      }));
    },
  };
}
