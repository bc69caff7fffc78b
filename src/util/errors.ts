/** Small helpers for turning unknown thrown values into text a person can read. */

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/**
 * A failure a tool (or the root-confined file code under it) reports on purpose; its message goes
 * to the model as the error result, as is. Defined here, below tools/ and workspace/, so both throw it.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
