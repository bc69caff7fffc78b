/**
 * The gate for tests that need the real command sandbox (bubblewrap, socat, ripgrep, user
 * namespaces). On a machine without them `npm test` still passes: those tests are skipped and the
 * run prints one line naming what is missing and how to install it (sandbox-gate-setup.ts). Under
 * `CI=true` they refuse to skip: .ci/run installs the packages, so a green CI run means every
 * escape was really tried.
 */
import { beforeAll, describe, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/probe.js';

export interface SandboxGate {
  /** Run the sandbox's tests. */
  run: boolean;
  /** Why they cannot run here, with the fix; undefined when they can. */
  reason: string | undefined;
}

export function sandboxGate(env: NodeJS.ProcessEnv = process.env): SandboxGate {
  const probe = probeSandbox(env);
  if (!probe.problem) return { run: true, reason: undefined };
  const reason = `the sandbox cannot run on this machine: ${probe.problem} (${probe.fix})`;
  // Under CI the tests run anyway and fail with the reason, rather than pass by skipping.
  return { run: env.CI === 'true', reason };
}

/** `describe` for a suite that needs the real sandbox: skipped (not failed) where it cannot run. */
export function describeWithSandbox(name: string, body: () => void): void {
  const gate = sandboxGate();
  describe.skipIf(!gate.run)(name, () => {
    // Under CI a machine without the packages fails here, with the reason, before any test.
    beforeAll(requireSandbox);
    body();
  });
}

/** `it` for one test that needs the real sandbox, in a file whose other tests do not. */
export const itWithSandbox: typeof it = it.skipIf(!sandboxGate().run) as typeof it;

/** For a suite's beforeAll: throws the reason when the sandbox cannot run (the CI case). */
export function requireSandbox(): void {
  const { reason } = sandboxGate({ ...process.env, CI: 'true' });
  if (reason) throw new Error(reason);
}
