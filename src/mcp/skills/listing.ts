/**
 * What a server's skills (the skills extension `io.modelcontextprotocol/skills`) look like to the
 * rest of the agent: each one read and verified (`read.ts`), or refused with the reason. No SDK
 * code: the connection and the skills feature use these types without loading it.
 */

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export type ServerSkill =
  | {
      kind: 'ok';
      /** The skill's own name (its frontmatter's), unique on its server. */
      name: string;
      /** Its `SKILL.md` URI. */
      uri: string;
      /** The whole `SKILL.md`, exactly the bytes its digest covers. */
      text: string;
      /** The URIs of its other files (checked when read, not now). */
      files: string[];
    }
  | { kind: 'refused'; name: string; uri: string; reason: string };
