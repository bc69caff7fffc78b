/**
 * Skills offered by MCP servers (the skills extension), beside the local ones: named
 * `<server>:<skill>`, read from the `SKILL.md` the server published and the connection verified
 * (mcp/skills/read.ts), with the same frontmatter rules as a local skill. A `tools:` or
 * `allowed-tools` list limits the tools while the skill is active, as a local skill's does, but a
 * server's skill grants nothing: it is never pre-approved (nobody reviewed it as they review a
 * project's skills at the trust question), and it has no executables or servers of its own.
 * Which servers' skills count (trust, skill-run servers) is the source's business (app/).
 */
import { FrontmatterError, parseFrontmatter } from '../config/frontmatter.js';
import type { ServerSkill } from '../mcp/skills/listing.js';
import { errorMessage } from '../util/errors.js';
import { descriptionProblem, NAME_PATTERN, type Skill } from './discover.js';
import { toolList } from './manifest.js';

export interface ServerSkillListing {
  server: string;
  skills: ServerSkill[];
}

/** Lines for the person while listing: a wait for servers, a server whose skills failed. */
export interface ListingLines {
  waiting(message: string): void;
  notice(message: string): void;
}

export interface ServerSkillSource {
  /** The skills of the servers that offer them, once the servers starting now have settled. */
  list(signal: AbortSignal, lines: ListingLines): Promise<ServerSkillListing[]>;
}

/** The servers' skills as the agent's: loadable, or listed with why not. */
export function serverSkillsAsSkills(listings: readonly ServerSkillListing[]): Skill[] {
  return listings.flatMap(({ server, skills }) => skills.map((skill) => asSkill(server, skill)));
}

function asSkill(server: string, skill: ServerSkill): Skill {
  const base: Skill = {
    name: `${server}:${skill.name}`,
    description: '',
    source: 'server',
    dir: '',
    file: skill.uri,
    body: '',
    preApproved: false,
    tools: [],
    status: { kind: 'ok' },
    server: { name: server, files: skill.kind === 'ok' ? skill.files : [] },
  };
  if (skill.kind === 'refused')
    return { ...base, status: { kind: 'error', message: `refused: ${skill.reason}`, line: 1 } };
  try {
    const front = parseFrontmatter(skill.text);
    const fail = (message: string, key: string): Skill => ({
      ...base,
      status: { kind: 'error', message, line: front.lines[key] ?? 1 },
    });
    if (!NAME_PATTERN.test(skill.name))
      return fail(`name "${skill.name}" must be 1-64 lowercase letters, digits or hyphens`, 'name');
    const description = front.fields.description;
    const badDescription = descriptionProblem(description);
    if (badDescription !== undefined || typeof description !== 'string')
      return fail(badDescription ?? 'description is missing', 'description');
    const listed = front.fields.tools ?? front.fields['allowed-tools'];
    const whitelist = listed === undefined ? undefined : toolList(listed);
    if (whitelist === null)
      return fail(
        'tools must be a list of tool names or patterns',
        front.fields.tools ? 'tools' : 'allowed-tools',
      );
    return {
      ...base,
      description: description.trim(),
      body: front.body.trim(),
      ...(whitelist ? { whitelist } : {}),
    };
  } catch (error) {
    const line = error instanceof FrontmatterError ? error.line : 1;
    return { ...base, status: { kind: 'error', message: errorMessage(error), line } };
  }
}

/** The servers' skills as last listed, and whether a new listing changed them. */
export class ServerSkillSet {
  private listings: ServerSkillListing[] = [];
  private key = '[]';

  constructor(private readonly source: ServerSkillSource | undefined) {}

  get skills(): Skill[] {
    return serverSkillsAsSkills(this.listings);
  }

  /** Lists again (no-op without a source); true when the skills changed. */
  async refresh(signal: AbortSignal, lines: ListingLines): Promise<boolean> {
    if (!this.source) return false;
    const listings = await this.source.list(signal, lines);
    const key = JSON.stringify(listings);
    if (key === this.key) return false;
    this.key = key;
    this.listings = listings;
    return true;
  }
}
