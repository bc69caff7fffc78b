/**
 * The question before `/undo` or `/rewind` puts back a protected path (`.geekagent/…`, `.env*`,
 * git's command-running files — whatever the ProtectedPathGuard names): a face that can ask
 * (`choose`) asks; where nobody can be asked (print mode) there is no question and the undo
 * refuses unless `--allow-protected` names the path.
 */
import type { ChoiceRequest } from '../commands/types.js';
import type { ConfirmProtectedRestore, ProtectedRestoreAnswer } from './undo.js';

type Choose = (request: ChoiceRequest) => Promise<number | undefined>;

/**
 * `/undo`'s question: restore, leave the file and drop the step, or cancel (the step stays for the
 * next `/undo`). `rewind`: restore or leave it (a rewind has no step to keep). `shown` is escaped.
 */
export function protectedRestoreQuestion(
  choose: Choose | undefined,
  kind: 'undo' | 'rewind',
): ConfirmProtectedRestore | undefined {
  if (!choose) return undefined;
  return async (shown, removes) => {
    const verb = removes ? 'delete' : 'restore';
    const answers: Array<[string, ProtectedRestoreAnswer]> =
      kind === 'undo'
        ? [
            [`Yes, ${verb} it`, 'restore'],
            ['No, leave it as it is and drop this step from the undo history', 'skip'],
            ['Cancel (the next /undo asks again)', 'cancel'],
          ]
        : [
            [`Yes, ${verb} it`, 'restore'],
            ['No, leave it as it is', 'skip'],
          ];
    const picked = await choose({
      title: `${kind === 'undo' ? 'Undo' : 'Rewind'}: ${verb} ${shown}${removes ? ' (the agent created it)' : ' to what it held before the agent wrote it'}? It is a protected path: its content can start commands or grant tools`,
      options: answers.map(([label]) => label),
    });
    return picked === undefined ? 'cancel' : (answers[picked]?.[1] ?? 'cancel');
  };
}
