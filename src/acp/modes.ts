/**
 * Approval modes in the editor: ACP's session modes are GeekAgent's approval modes (default,
 * accept-edits, plan, bypass), offered in `session/new`/`session/load`, switched by
 * `session/set_mode` under the same rules as Shift+Tab (bypass only in a folder the person
 * trusted), and reported back with `current_mode_update` when the mode changes in the session
 * (leaving plan mode through `exit_plan_mode`).
 */
import type { SessionModeState } from '@agentclientprotocol/sdk';
import type { App } from '../app/create-app.js';
import { MODE_DESCRIPTIONS } from '../permissions/approval-mode.js';

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
