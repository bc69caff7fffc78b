/**
 * Converts a `tools/call` result into tool output for the model: text joined, media kept or
 * replaced by a placeholder, resources rendered as text, and results over the token limit cut.
 */
import { type ContentPart, mediaPlaceholder, type ToolOutput } from '../tools/types.js';

export interface ConvertedResult {
  output: ToolOutput;
  isError: boolean;
  /** Characters cut from the text to fit `maxResultTokens`. */
  truncatedChars?: number;
  /** When cut: the whole (redacted) text, for keeping in a file the model can page through. */
  fullText?: string;
}

export interface ConvertOptions {
  maxResultTokens: number;
  acceptsMedia: boolean;
  /** Applied to every text before the result is cut, so a cut never leaves half a secret. */
  redact?: (text: string) => string;
}

type MediaPart = Exclude<ContentPart, { type: 'text' }>;
type Piece = { kind: 'text'; text: string } | { kind: 'media'; part: MediaPart };

const CHARS_PER_TOKEN = 4;

/** A rough count (about four characters a token) — enough to keep results within budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function convertCallToolResult(result: unknown, options: ConvertOptions): ConvertedResult {
  const record = isRecord(result) ? result : {};
  const isError = record.isError === true;
  const collected = collectPieces(record, options.acceptsMedia);
  const redact = options.redact;
  const pieces = redact
    ? collected.map(
        (piece): Piece => (piece.kind === 'text' ? { kind: 'text', text: redact(piece.text) } : piece),
      )
    : collected;
  if (pieces.length === 0) return { output: '(no content)', isError };
  const cut = cutToLimit(pieces, options.maxResultTokens);
  const assembled = assemble(cut.pieces);
  const output = assembled === '' ? '(no content)' : assembled;
  if (cut.truncatedChars === 0) return { output, isError };
  const fullText = pieces.flatMap((piece) => (piece.kind === 'text' ? [piece.text] : [])).join('\n');
  return { output, isError, truncatedChars: cut.truncatedChars, fullText };
}

function collectPieces(record: Record<string, unknown>, acceptsMedia: boolean): Piece[] {
  // Protocol 2024-10-07 servers answer with `toolResult` instead of `content`.
  if (!('content' in record) && 'toolResult' in record) {
    const legacy = record.toolResult;
    if (legacy === undefined || legacy === null || legacy === '') return [];
    return [{ kind: 'text', text: typeof legacy === 'string' ? legacy : safeJson(legacy) }];
  }
  const content = Array.isArray(record.content) ? record.content : [];
  const pieces: Piece[] = [];
  let hasText = false;
  for (const item of content) {
    if (isRecord(item) && item.type === 'text') hasText = true;
    pieces.push(convertPart(item, acceptsMedia));
  }
  // Servers that answer with structured data only still owe the model something readable.
  if (!hasText && record.structuredContent !== undefined && record.structuredContent !== null) {
    pieces.push({ kind: 'text', text: safeJson(record.structuredContent) });
  }
  return pieces;
}

function convertPart(item: unknown, acceptsMedia: boolean): Piece {
  const text = (value: string): Piece => ({ kind: 'text', text: value });
  if (!isRecord(item)) return text('[unknown content]');
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? text(item.text) : text('[text content]');
    case 'image':
    case 'audio': {
      const part: MediaPart = {
        type: item.type,
        data: typeof item.data === 'string' ? item.data : '',
        mimeType: typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream',
      };
      return acceptsMedia ? { kind: 'media', part } : text(mediaPlaceholder(part));
    }
    case 'resource':
      return text(describeResource(item.resource));
    case 'resource_link': {
      const name = typeof item.name === 'string' ? item.name : '';
      const uri = typeof item.uri === 'string' ? item.uri : '';
      const head = `[resource link: ${[name, uri].filter(Boolean).join(' ')}]`;
      return text(
        typeof item.description === 'string' && item.description ? `${head} ${item.description}` : head,
      );
    }
    default:
      return text(`[${typeof item.type === 'string' ? item.type : 'unknown'} content]`);
  }
}

function describeResource(resource: unknown): string {
  if (!isRecord(resource)) return '[resource]';
  const uri = typeof resource.uri === 'string' ? resource.uri : '(no uri)';
  if (typeof resource.text === 'string') return `[resource ${uri}]\n${resource.text}`;
  if (typeof resource.blob === 'string') {
    const size = `${base64Bytes(resource.blob)} bytes`;
    const type = typeof resource.mimeType === 'string' ? `${resource.mimeType}, ` : '';
    return `[resource ${uri}: ${type}${size}]`;
  }
  return `[resource ${uri}]`;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * Keeps at most `limit` tokens of text, counting the `\n` separators the text will be joined with.
 * Works piece by piece so a huge result is sliced once, never joined in full.
 */
function cutToLimit(pieces: readonly Piece[], limit: number): { pieces: Piece[]; truncatedChars: number } {
  const texts = pieces.filter((piece) => piece.kind === 'text');
  const totalChars = texts.reduce((sum, piece) => sum + piece.text.length, 0) + Math.max(0, texts.length - 1);
  const estimated = Math.ceil(totalChars / CHARS_PER_TOKEN);
  if (estimated <= limit) return { pieces: [...pieces], truncatedChars: 0 };

  let remaining = limit * CHARS_PER_TOKEN;
  let keptChars = 0;
  let first = true;
  const kept: Piece[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'media') {
      kept.push(piece);
      continue;
    }
    const separator = first ? 0 : 1;
    if (remaining <= separator) continue;
    const room = remaining - separator;
    const text = piece.text.length <= room ? piece.text : sliceWhole(piece.text, room);
    kept.push({ kind: 'text', text });
    remaining -= separator + text.length;
    keptChars += separator + text.length;
    first = false;
  }
  const truncatedChars = totalChars - keptChars;
  kept.push({
    kind: 'text',
    text: `(result truncated: showing about ${limit} of ${estimated} tokens; ${truncatedChars} characters cut)`,
  });
  return { pieces: kept, truncatedChars };
}

/** Never leaves half a surrogate pair at the end. */
function sliceWhole(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? length - 1 : length;
  return text.slice(0, end);
}

/** All text → one string; with media, a part list whose neighbouring text parts are joined. */
function assemble(pieces: readonly Piece[]): ToolOutput {
  if (pieces.every((piece) => piece.kind === 'text')) {
    return pieces.map((piece) => (piece.kind === 'text' ? piece.text : '')).join('\n');
  }
  const parts: ContentPart[] = [];
  let texts: string[] = [];
  const flush = () => {
    if (texts.length > 0) parts.push({ type: 'text', text: texts.join('\n') });
    texts = [];
  };
  for (const piece of pieces) {
    if (piece.kind === 'text') texts.push(piece.text);
    else {
      flush();
      parts.push(piece.part);
    }
  }
  flush();
  return parts;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
