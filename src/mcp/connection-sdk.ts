/**
 * Everything a connection needs from the MCP SDK (v2, `@modelcontextprotocol/client`), in one
 * module that `connection.ts` imports when a server actually connects (never before): a run whose
 * servers are all idle — started lazily from cached tool lists — loads no SDK until its first call
 * to one of them.
 */
export {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnauthorizedError,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
export { NeedsLoginError } from './auth/oauth-fetch.js';
export { configureClientFeatures } from './client-handlers.js';
