/**
 * Converts the provider-neutral messages and tool list into Chat Completions request params. Media
 * in tool results goes as placeholder text, plus an extra user message with images for models that
 * see. The compaction summary goes as a system message starting `[Summary of previous conversation]`.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { outputToText } from '../../tools/types.js';
import { type Message, SUMMARY_PREFIX, userMessageText, userTextWithoutImages } from '../messages.js';
import type { ProviderTool } from '../types.js';

type ToolMessage = Extract<Message, { role: 'tool' }>;

export function toOpenAIMessages(
  messages: readonly Message[],
  acceptsMedia: boolean,
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let toolRun: ToolMessage[] = [];
  // The Chat Completions API wants every tool message right after its assistant turn, so images
  // can only follow once the whole run of tool results is out.
  const flushRun = (): void => {
    const images = acceptsMedia ? imageMessage(toolRun) : undefined;
    if (images) out.push(images);
    toolRun = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: message.callId, content: outputToText(message.output) });
      toolRun.push(message);
      continue;
    }
    flushRun();
    out.push(convert(message, acceptsMedia));
  }
  flushRun();
  return out;
}

export function toOpenAITools(tools: readonly ProviderTool[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

function convert(message: Exclude<Message, ToolMessage>, acceptsMedia: boolean): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'summary':
      return { role: 'system', content: `${SUMMARY_PREFIX}\n${message.text}` };
    case 'user': {
      const images = message.images ?? [];
      if (images.length === 0) return { role: 'user', content: userMessageText(message) };
      if (!acceptsMedia) return { role: 'user', content: userTextWithoutImages(message) };
      // The person's images go in their own message as data URLs, after its text.
      return {
        role: 'user',
        content: [
          { type: 'text', text: userMessageText(message) },
          ...images.map(
            (image): ChatCompletionContentPart => ({
              type: 'image_url',
              image_url: { url: `data:${image.mimeType};base64,${image.data}` },
            }),
          ),
        ],
      };
    }
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.text };
      const param: ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
        role: 'assistant',
        content: message.text === '' ? null : message.text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
      // Not in OpenAI's types: DeepSeek's thinking mode requires it back on tool-call rounds.
      // Another API's thinking (it came with that API's native state) is not DeepSeek's to read.
      if (message.reasoning && message.native === undefined) param.reasoning_content = message.reasoning;
      return param;
    }
  }
}

function imageMessage(run: ToolMessage[]): ChatCompletionMessageParam | undefined {
  const parts: ChatCompletionContentPart[] = [];
  for (const message of run) {
    if (typeof message.output === 'string') continue;
    const images = message.output.flatMap((part) => (part.type === 'image' ? [part] : []));
    if (images.length === 0) continue;
    parts.push({ type: 'text', text: `Images returned by tool ${message.name}:` });
    for (const image of images) {
      parts.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
    }
  }
  return parts.length > 0 ? { role: 'user', content: parts } : undefined;
}
