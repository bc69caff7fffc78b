/**
 * Approval modes in the editor: ACP's session modes are GeekAgent's approval modes (default,
 * accept-edits, plan, bypass), offered in `session/new`/`session/load`, switched by
 * `session/set_mode` under the same rules as Shift+Tab (bypass only in a folder the person
 * trusted), and reported back with `current_mode_update` when the mode changes in the session
 * (leaving plan mode through `exit_plan_mode`). The mode belongs to the saved session (one state
 * line of its file), so an editor that reconnects and loads it is still in the same mode.
 */
import type { SessionModeState } from '@agentclientprotocol/sdk/unstable';
import type { App } from '../app/create-app.js';
import { MODE_DESCRIPTIONS } from '../permissions/approval-mode.js';

/** The session state key of the mode an editor chose. */
export const MODE_STATE_KEY = 'approvalMode';

const MODE_NAMES = {
  default: 'Default',
  'accept-edits': 'Accept edits',
  plan: 'Plan',
  bypass: 'Bypass permissions',
} as const;

export function modeState(app: Pick<App, 'approvalMode'>): SessionModeState {
  const modes = app.approvalMode;
  return {
    currentModeId: modes.current,
    // Bypass is offered only where it can be chosen: a folder the person trusted.
    availableModes: modes.modes
      .filter((mode) => mode === modes.current || modes.refusal(mode) === undefined)
      .map((mode) => ({ id: mode, name: MODE_NAMES[mode], description: MODE_DESCRIPTIONS[mode] })),
  };
}

/** Records the mode in the session (nothing when it is already the one recorded). */
export function recordMode(app: Pick<App, 'conversation'>, mode: string): void {
  if (app.conversation.state(MODE_STATE_KEY) !== mode) app.conversation.setState(MODE_STATE_KEY, mode);
}

/**
 * The saved session's mode again; what stopped it (bypass in a folder no longer trusted) as a
 * sentence for the person, else undefined.
 */
export function restoreMode(app: Pick<App, 'approvalMode' | 'conversation'>): string | undefined {
  const saved = app.conversation.state(MODE_STATE_KEY);
  if (typeof saved !== 'string' || saved === app.approvalMode.current) return undefined;
  const problem = app.approvalMode.set(saved);
  return problem
    ? `This session was in ${saved} mode, which cannot be used now (${problem}): it goes on in ${app.approvalMode.current} mode.`
    : undefined;
}
