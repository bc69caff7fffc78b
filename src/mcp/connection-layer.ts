/**
 * The part of the MCP client that runs on the SDK: connections (the SDK `Client`), the handlers of
 * server requests, and the transports. The manager receives it as `McpManagerOptions.connections`;
 * `app/create-mcp.ts` imports it only when a run has a server, so a run without any never loads
 * the SDK.
 */
export { configureClientFeatures } from './client-handlers.js';
export { McpConnection } from './connection.js';
export { createTransportFactory } from './transports.js';
