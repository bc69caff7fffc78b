/**
 * Secret redaction for tool output, errors and prompts. The implementation is a text helper at the
 * bottom layer (util/redact.ts) so tools and MCP results can redact before they cut; re-exported
 * here, where the permission layer's users look for it.
 */
export * from '../util/redact.js';
