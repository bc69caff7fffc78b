/**
 * Extra roots (an editor's `additionalDirectories`): the file tools already take paths inside them
 * under the same rules as the root (workspace/root-sandbox.ts); this tells the model they exist.
 */

import { type Extension, PROMPT_ORDER } from '../../extensions/types.js';
import { visibleLine } from '../../util/terminal-text.js';

export function extraRootsExtension(roots: readonly string[]): Extension {
  const text = [
    'Further folders the file tools can use, by absolute path, under the same rules as the project root:',
    ...roots.map((root) => `- ${visibleLine(root)}`),
    'Commands still run in the project root, and glob patterns are relative to it.',
  ].join('\n');
  return {
    name: 'extra-roots',
    setup(host) {
      host.on.prompt(async () => ({ order: PROMPT_ORDER.extraRoots, text }));
    },
  };
}
