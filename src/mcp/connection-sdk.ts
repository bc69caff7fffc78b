/**
 * Everything a connection needs from the MCP SDK, in one module that `connection.ts` imports when
 * a server actually connects (never before): a run whose servers are all idle — started lazily
 * from cached tool lists — loads no SDK until its first call to one of them.
 */
export { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { NeedsLoginError } from './auth/oauth-fetch.js';
export { configureClientFeatures } from './client-handlers.js';
