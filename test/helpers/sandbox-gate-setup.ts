/**
 * Vitest global setup: one line at the start of the run when the sandbox's tests will be skipped
 * (what is missing and how to install it), so a green run on such a machine says what it left out.
 */
import { sandboxGate } from './sandbox-gate.js';

export default function setup(): void {
  const gate = sandboxGate();
  if (!gate.run) console.warn(`\nsandbox tests skipped: ${gate.reason}\n`);
}
