/**
 * The type of the SDK's error classes that the connection's classifiers test against, as
 * `connection-sdk.ts` hands them over at run time. A leaf: it names the SDK's own exports (types
 * only, so nothing loads), not connection-sdk.ts, whose handlers reach back into the classifiers.
 */
import type * as Client from '@modelcontextprotocol/client';
import type { NeedsLoginError } from './auth/oauth-fetch.js';

export type SdkErrors = Pick<
  typeof Client,
  | 'ProtocolError'
  | 'SdkError'
  | 'SdkErrorCode'
  | 'SdkHttpError'
  | 'UnsupportedProtocolVersionError'
  | 'SUPPORTED_PROTOCOL_VERSIONS'
> & { NeedsLoginError: typeof NeedsLoginError };
