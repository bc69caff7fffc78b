/**
 * The features a project folder is read for when its trust is decided, in the order the question
 * lists their items. The record keeps items by key (its hash does not depend on this order), but
 * a contributor added or left out changes what a folder declares: trusted folders would be asked
 * again, or a declaration would go unasked. Trust itself imports none of them: every face and
 * command that decides trust hands this list to `decideTrust` (`geekagent trust` to `readDeclarations`).
 */
import { commandTrust } from '../custom-commands/declarations.js';
import { hookTrust } from '../hooks/declarations.js';
import { mcpTrust } from '../mcp/feature/declarations.js';
import { memoryTrust } from '../memory/feature/declarations.js';
import { envTrust } from '../model-choice/declarations.js';
import { permissionTrust } from '../permissions/feature/declarations.js';
import { pluginTrust } from '../plugins/feature/declarations.js';
import { skillTrust } from '../skills/declarations.js';
import { agentTrust } from '../subagents/declarations.js';
import type { TrustContributor } from '../trust/declarations.js';

export const TRUST_CONTRIBUTORS: readonly TrustContributor[] = Object.freeze([
  mcpTrust,
  permissionTrust,
  hookTrust,
  envTrust,
  skillTrust,
  agentTrust,
  commandTrust,
  pluginTrust,
  memoryTrust,
]);
