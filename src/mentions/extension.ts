/**
 * `@path` mentions and attached images as an extension. The person's `@src/app.ts` attaches the
 * file to their message (a folder as its listing, an image as an image), `@` completes paths in
 * the TUI, and an image path pasted alone (or `--image FILE`) attaches that image — for a model
 * that takes images, within its API's types and size, checked before sending; otherwise a note
 * names the file and why, and nothing of it is sent. `@server:uri` stays the MCP extension's.
 * Only the person's own input is read this way: a command's text or a model's task never is.
 */
import path from 'node:path';
import type { TurnScope } from '../agent/turn-points.js';
import type { Extension } from '../extensions/types.js';
import type { McpManager } from '../mcp/manager.js';
import { imageProblem } from '../providers/image-limits.js';
import type { ChatProvider } from '../providers/types.js';
import {
  type Attachment,
  attachContext,
  attachPastedImage,
  attachPath,
  MENTION_IMAGE_BYTES,
} from './attach.js';
import { completePath } from './complete.js';
import { GitignoreCache } from './ignore-rules.js';
import { sniffImage } from './image-type.js';
import { findMentions, pastedPath, resourceServerOf } from './parse.js';

export interface MentionsOptions {
  /** The permission root: mentions are relative to it and stay inside it. */
  root: string;
  /** The working folder: `--image` paths are relative to it. */
  projectDir: string;
  /** The user state folder, never attached. */
  userDir: string;
  /** Read at each turn: a `/model` switch changes what may be sent. */
  provider: Pick<ChatProvider, 'name' | 'model' | 'acceptsMedia'>;
  redact?: (text: string) => string;
  /** `@<name>:…` is a resource mention when `name` is a configured MCP server. */
  mcp: Pick<McpManager, 'connection'>;
}

type ImageAttachment = Extract<Attachment, { kind: 'image' }>;

/** `images`: `--image FILE` (repeatable), attached to the first message the person sends. */
export function mentionsExtension(
  root: string,
  rest: Omit<MentionsOptions, 'root'>,
  images: readonly string[] = [],
): Extension {
  const options: MentionsOptions = { root, ...rest };
  // Every turn and every Tab consults the .gitignore files: read once, re-read when changed.
  const gitignores = new GitignoreCache();
  let pendingImages = [...images];
  return {
    name: 'mentions',
    setup(host) {
      host.completion(async (word) =>
        completePath(word, await attachContext(options.root, options.userDir, options.redact, gitignores)),
      );
      host.on.input(async (text, turn) => {
        if (!turn.byPerson) return text;
        const flagged = pendingImages;
        pendingImages = [];
        const blocks = await attachAll(turn, flagged, options, gitignores);
        return blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`;
      });
    },
  };
}

/** Attaches what the turn's input (and `--image`) names; returns the blocks for the model. */
async function attachAll(
  turn: TurnScope,
  flagged: string[],
  options: MentionsOptions,
  gitignores: GitignoreCache,
): Promise<string[]> {
  const ctx = await attachContext(options.root, options.userDir, options.redact, gitignores);
  const blocks: string[] = [];
  let imageBytes = 0;
  const image = (label: string, attachment: ImageAttachment): void => {
    const { provider } = options;
    const problem = !provider.acceptsMedia
      ? `the model ${provider.model} does not accept images (GEEKAGENT_ACCEPTS_MEDIA=1 says it does)`
      : turn.attachImage === undefined
        ? 'images cannot be attached here'
        : imageProblem(provider.name, attachment.mimeType, attachment.data.length, imageBytes);
    if (problem) {
      turn.notify(`not attached: ${label} — ${problem}`);
      blocks.push(`[image ${label} not attached: ${problem}]`);
      return;
    }
    imageBytes += attachment.data.length;
    turn.attachImage?.({
      name: label,
      mimeType: attachment.mimeType,
      data: attachment.data.toString('base64'),
    });
    turn.notify(`attached image ${label} (${attachment.mimeType}, ${size(attachment.data.length)})`);
  };
  const refused = (label: string, reason: string): void => {
    turn.notify(`not attached: ${label} — ${reason}`);
    blocks.push(`[${label} not attached: ${reason}]`);
  };

  // Images an editor sent with its prompt: their type from their bytes, never from what it says.
  for (const given of turn.images ?? []) {
    const data = Buffer.from(given.data, 'base64');
    const mimeType = sniffImage(data);
    if (mimeType === undefined) refused(given.name, 'not a png, jpeg, gif or webp image');
    else if (data.length > MENTION_IMAGE_BYTES)
      refused(given.name, `larger than ${size(MENTION_IMAGE_BYTES)}`);
    else image(given.name, { kind: 'image', mimeType, data });
  }
  for (const file of flagged) {
    const attachment = await attachPastedImage(path.resolve(options.projectDir, file));
    if (attachment.kind === 'image') image(file, attachment);
    else refused(file, attachment.kind === 'refused' ? attachment.reason : 'no such file');
  }
  const pasted = pastedPath(turn.input);
  if (pasted !== undefined) {
    const attachment = await attachPastedImage(path.resolve(options.root, pasted));
    if (attachment.kind === 'image') image(pasted, attachment);
    else if (attachment.kind === 'refused') refused(pasted, attachment.reason);
  }
  const seen = new Set<string>();
  for (const token of findMentions(turn.input)) {
    const server = resourceServerOf(token);
    if (server !== undefined && options.mcp.connection(server) !== undefined) continue;
    let name = token.path;
    let attachment = await attachPath(name, ctx);
    if (attachment.kind === 'missing' && token.trimmed !== name && token.trimmed !== '') {
      name = token.trimmed;
      attachment = await attachPath(name, ctx);
    }
    // Not a path (`@alice`, an npm scope): the word stays as typed, as before mentions.
    if (attachment.kind === 'missing' || seen.has(name)) continue;
    seen.add(name);
    const label = `@${name}`;
    if (attachment.kind === 'refused') refused(label, attachment.reason);
    else if (attachment.kind === 'image') image(label, attachment);
    else {
      blocks.push(attachment.block);
      turn.notify(`attached ${label} (${attachment.summary})`);
    }
  }
  return blocks;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
