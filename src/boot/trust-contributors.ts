/**
 * The features a project folder is read for when its trust is decided, in the order their items
 * are listed (and hashed into the record: the order and the set must stay as they are, or every
 * trusted folder would be asked again). Trust itself imports none of them: every face and command
 * that decides trust hands this list to `decideTrust` (and `geekagent trust` to `readDeclarations`).
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
