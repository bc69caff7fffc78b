/**
 * A connected server's skills through the SDK's `SkillsClient`: `skills/list` (every page; invalid
 * entries skipped and reported), then each skill's `SKILL.md` read and verified against its entry
 * — listed, size, SHA-256 digest, frontmatter — so the text the agent loads is exactly what the
 * server published. A file that fails is refused with the reason, never loaded; a `"dynamic"`
 * skill (no digests to check) is refused too. Loaded by the connection on first use only.
 */
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { errorMessage } from '../../util/errors.js';
import type { ServerSkill } from './listing.js';

/** Skills read from one server at most: a catalog line each, and a read each. */
const MAX_SKILLS = 100;

export async function readServerSkills(
  client: Client,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ServerSkill[]> {
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return [];
  const options = { timeout: timeoutMs, ...(signal ? { signal } : {}) };
  const listing = await skills.list(undefined, options);
  const out: ServerSkill[] = listing.invalid.map((entry) => ({
    kind: 'refused',
    name: entry.uri ?? `entry ${entry.index + 1}`,
    uri: entry.uri ?? '',
    reason: `invalid skills/list entry: ${entry.reason}`,
  }));
  for (const entry of listing.skills.slice(0, MAX_SKILLS)) {
    const name = entry.frontmatter.name;
    const refused = (reason: string): ServerSkill => ({ kind: 'refused', name, uri: entry.uri, reason });
    if (entry.resources === 'dynamic') {
      out.push(refused('its files are "dynamic" (no size or digest to verify them by)'));
      continue;
    }
    try {
      const file = await skills.read(entry, undefined, { ...options, cacheMode: 'bypass' });
      if (file.text === undefined || !file.verified) {
        out.push(refused('SKILL.md came without its text'));
        continue;
      }
      const files = entry.resources.map((resource) => resource.uri).filter((uri) => uri !== entry.uri);
      out.push({ kind: 'ok', name, uri: entry.uri, text: file.text, files });
    } catch (error) {
      if (error instanceof SkillVerificationError) out.push(refused(verificationReason(error)));
      else throw error;
    }
  }
  return out;
}

function verificationReason(error: SkillVerificationError): string {
  switch (error.reason) {
    case 'digest':
      return `${error.uri} does not match the SHA-256 digest the server published for it (changed after publishing?)`;
    case 'size':
      return `${error.uri} is not the size the server published for it`;
    case 'unlisted':
      return `${error.uri} is not among the files the server published for the skill`;
    case 'frontmatter':
      return `${error.uri}'s frontmatter differs from what the server published (${error.differences.join('; ')})`;
    default:
      return errorMessage(error);
  }
}
