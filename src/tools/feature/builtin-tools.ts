/**
 * The built-in tools as an extension: the nine tools with their default policies, and `/undo`
 * (the stack the file tools record into; a protected path is asked where the face can ask).
 */

import type { Extension } from '../../extensions/types.js';
import { BUILTIN_POLICIES } from '../../permissions/defaults.js';
import type { UndoStack } from '../../permissions/undo.js';
import { protectedRestoreQuestion } from '../../permissions/undo-confirm.js';
import { createBuiltinTools } from '../builtin/index.js';
import type { Tool } from '../types.js';

export function builtinToolsExtension(options: { undo: UndoStack; tools?: Tool[] }): Extension {
  return {
    name: 'builtin-tools',
    setup(host) {
      for (const tool of options.tools ?? createBuiltinTools()) {
        host.tools.add(tool, BUILTIN_POLICIES[tool.name] ?? 'ask');
      }
      host.commands.add({
        name: 'undo',
        usage: '/undo',
        description: 'restore the last confirmed write or patch (repeat to go further back)',
        idleOnly: true,
        run: async (_args, ctx) => {
          ctx.print(await options.undo.undo(protectedRestoreQuestion(ctx.choose, 'undo')));
        },
      });
    },
  };
}
