/**
 * Answers a server's `sampling/createMessage` with the agent's own model, after the person
 * approved it. The server's messages become a one-off conversation; nothing enters the chat.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import { isCut } from '../providers/stop-reason.js';
import type { ChatProvider, Message } from '../providers/types.js';
import type { SamplingHandler, SamplingParams } from './client-features.js';

export interface SamplingApprover {
  /** Shows the request (server, messages) to the person; true to let the model answer it. */
  approve(server: string, params: SamplingParams, signal: AbortSignal): Promise<boolean>;
  /** Shows what the model answered, once it did. */
  answered?(server: string, text: string): void;
}

export function samplingMessagesText(params: SamplingParams): string {
  return params.messages.map((message) => `${message.role}: ${contentText(message.content)}`).join('\n');
}

function contentText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part: { type?: string; text?: string; mimeType?: string }) =>
      part?.type === 'text'
        ? (part.text ?? '')
        : `[${part?.type ?? 'unknown'}${part?.mimeType ? `: ${part.mimeType}` : ''}]`,
    )
    .join('\n');
}

export function modelSampling(provider: ChatProvider, approver: SamplingApprover): SamplingHandler {
  return {
    sample: async (server, params, signal): Promise<CreateMessageResult> => {
      // Only a connected server asks, so the SDK is loaded by then (the TUI never loads it itself).
      const { ProtocolError, ProtocolErrorCode } = await import('@modelcontextprotocol/client');
      if (!(await approver.approve(server, params, signal))) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `sampling request from ${server} was declined by the user`,
        );
      }
      const messages: Message[] = [];
      if (params.systemPrompt) messages.push({ role: 'system', text: params.systemPrompt });
      for (const message of params.messages) {
        const text = contentText(message.content);
        messages.push(message.role === 'assistant' ? { role: 'assistant', text } : { role: 'user', text });
      }
      let text: string;
      let stopReason = 'endTurn';
      try {
        const reply = await provider.complete({ messages, tools: [], signal });
        text = reply.text;
        // MCP's own word for an answer cut at the output limit; a refusal or filter has none.
        if (reply.stop?.reason === 'max_tokens') stopReason = 'maxTokens';
        else if (isCut(reply.stop)) stopReason = reply.stop.reason;
      } catch (error) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `the model could not answer: ${(error as Error).message}`,
        );
      }
      approver.answered?.(server, text);
      return {
        role: 'assistant',
        content: { type: 'text', text },
        model: provider.model,
        stopReason,
      };
    },
  };
}
