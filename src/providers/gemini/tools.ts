/**
 * The tool list as Gemini function declarations. A tool whose schema or name Gemini cannot take
 * is left out of the request (never the whole request), with one note per tool and session.
 */
import type { ProviderTool } from '../types.js';
import { SchemaConversionError, toGeminiParameters } from './schema.js';

export interface GeminiDeclaration {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface GeminiToolList {
  declarations: GeminiDeclaration[];
  /** The tool each declaration came from, by index (an API error names `function_declarations[i]`). */
  sent: ProviderTool[];
}

/** Gemini's rule for a function name: a letter or underscore, then up to 63 of these. */
const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

export function toGeminiTools(
  tools: readonly ProviderTool[],
  leftOut: (tool: ProviderTool, reason: string) => void,
): GeminiToolList {
  const declarations: GeminiDeclaration[] = [];
  const sent: ProviderTool[] = [];
  for (const tool of tools) {
    if (!NAME.test(tool.name)) {
      leftOut(tool, 'Gemini takes function names of up to 64 letters, digits, _ . : -');
      continue;
    }
    let parameters: Record<string, unknown>;
    try {
      parameters = toGeminiParameters(tool.parameters);
    } catch (error) {
      if (!(error instanceof SchemaConversionError)) throw error;
      leftOut(tool, error.message);
      continue;
    }
    const declaration: GeminiDeclaration = { name: tool.name, parameters };
    if (tool.description) declaration.description = tool.description;
    declarations.push(declaration);
    sent.push(tool);
  }
  return { declarations, sent };
}

/** How a tool is named to the person: the MCP server and its own name, or the built-in name. */
export function toolLabel(tool: ProviderTool): string {
  return tool.origin
    ? `tool "${tool.origin.tool}" of MCP server "${tool.origin.server}" (${tool.name})`
    : `tool ${tool.name}`;
}
