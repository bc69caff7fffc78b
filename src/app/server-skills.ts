/**
 * Where the skills feature gets MCP servers' skills (skills/server-skills.ts): from the run's
 * manager, once the run's start-up grace is over (mcp/start-grace.ts: a slow server's skills join
 * when it is up, at a later turn), of every connected server that offers the
 * skills extension — but never a project server's in a folder that is not trusted, and never a
 * skill's own servers (their skill is what brought them). Each server's skills are read once per
 * connection (a restart or re-listing reads them again); a read that fails is said and retried on
 * the next turn. Idle servers (cached tool lists) are not started for their skills.
 */
import type { McpManager } from '../mcp/manager.js';
import type { ServerSkill } from '../mcp/skills/listing.js';
import type { StartGrace } from '../mcp/start-grace.js';
import type { ServerState } from '../mcp/status.js';
import type { ServerSkillListing, ServerSkillSource } from '../skills/server-skills.js';
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import { visibleLine } from '../util/terminal-text.js';

export function mcpServerSkills(
  manager: McpManager,
  projectTrusted: boolean,
  grace: StartGrace,
): ServerSkillSource {
  const read = new Map<string, { state: ServerState; skills: Promise<ServerSkill[]> }>();
  return {
    async list(signal, lines) {
      await grace.wait(signal);
      const listings: ServerSkillListing[] = [];
      for (const status of manager.statuses()) {
        if (status.group !== undefined || (status.source === 'project' && !projectTrusted)) continue;
        const connection = manager.connection(status.name);
        if (status.state.state !== 'connected' || !connection?.offersSkills) {
          read.delete(status.name);
          continue;
        }
        let entry = read.get(status.name);
        if (!entry || entry.state !== status.state) {
          const current: { state: ServerState; skills: Promise<ServerSkill[]> } = {
            state: status.state,
            skills: connection.readSkills().catch((error: unknown) => {
              if (read.get(status.name) === current) read.delete(status.name);
              lines.notice(
                `MCP server ${status.name}: its skills could not be read: ${visibleLine(errorMessage(error))}`,
              );
              return [];
            }),
          };
          entry = current;
          read.set(status.name, entry);
        }
        listings.push({ server: status.name, skills: await raceAbort(entry.skills, signal) });
      }
      return listings;
    },
  };
}
