/**
 * Who turns an authorization URL into an authorization response (the code, and the `iss` the
 * authorization server put beside it — RFC 9207, checked by the SDK before the code is redeemed).
 * A person: the browser opens and a loopback server catches the redirect, or — where no browser
 * can open (SSH, headless) — they paste the URL they were redirected to. A test or CI: follow the
 * authorization server's redirect.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { visibleLine } from '../../util/terminal-text.js';

export interface AuthorizationRequest {
  server: string;
  authorizationUrl: URL;
  redirectUrl: URL;
  expectedState: string | undefined;
}

/** What the authorization server's redirect carried: the code, and its `iss` if it sent one. */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

export interface AuthorizationPrompter {
  obtainCode(request: AuthorizationRequest): Promise<AuthorizationResponse>;
}

/** The code (and `iss`) from the URL the authorization server redirected to, after checking `state`. */
export function codeFromRedirect(redirected: URL, expectedState: string | undefined): AuthorizationResponse {
  const error = redirected.searchParams.get('error');
  if (error) {
    const description = redirected.searchParams.get('error_description');
    throw new Error(`authorization was refused: ${error}${description ? `: ${description}` : ''}`);
  }
  const code = redirected.searchParams.get('code');
  if (!code) throw new Error(`no authorization code in ${redirected.origin}${redirected.pathname}`);
  const state = redirected.searchParams.get('state');
  if (expectedState !== undefined && state !== expectedState) {
    throw new Error('the redirect carries the wrong state parameter (possible CSRF); start the login again');
  }
  const iss = redirected.searchParams.get('iss');
  return iss === null ? { code } : { code, iss };
}

/** Follows the authorization endpoint's redirect without a browser (servers that auto-approve). */
export const followRedirectPrompter: AuthorizationPrompter = {
  async obtainCode({ authorizationUrl, expectedState }) {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
    return codeFromRedirect(new URL(location, authorizationUrl), expectedState);
  },
};

export interface InteractivePrompterOptions {
  output: NodeJS.WritableStream;
  input: NodeJS.ReadableStream;
  /** Try to open a browser (false on SSH/headless: paste-back only). */
  openBrowser: boolean;
}

/** Browser + loopback callback, with paste-back always available: whichever answers first. */
export function interactivePrompter(options: InteractivePrompterOptions): AuthorizationPrompter {
  return {
    obtainCode: (request) =>
      new Promise<AuthorizationResponse>((resolve, reject) => {
        let settled = false;
        const cleanups: Array<() => void> = [];
        const finish = (outcome: () => AuthorizationResponse) => {
          if (settled) return;
          let code: AuthorizationResponse;
          try {
            code = outcome();
          } catch (error) {
            settled = true;
            for (const cleanup of cleanups) cleanup();
            reject(error);
            return;
          }
          settled = true;
          for (const cleanup of cleanups) cleanup();
          resolve(code);
        };

        const callback = createServer((req, res) => {
          const url = new URL(req.url ?? '/', request.redirectUrl);
          if (url.pathname !== request.redirectUrl.pathname) {
            res.writeHead(404).end();
            return;
          }
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            '<!doctype html><title>GeekAgent</title><p>GeekAgent: login finished, you can close this tab.</p>',
          );
          finish(() => codeFromRedirect(url, request.expectedState));
        });
        cleanups.push(() => {
          callback.closeAllConnections();
          callback.close();
        });

        const lines = createInterface({ input: options.input, terminal: false });
        lines.on('line', (line) => {
          const text = line.trim();
          if (text === '') return;
          let url: URL;
          try {
            url = new URL(text);
          } catch {
            options.output.write('That is not a URL; paste the whole address from the browser bar.\n');
            return;
          }
          finish(() => codeFromRedirect(url, request.expectedState));
        });
        cleanups.push(() => lines.close());

        // The URL is shown only once the callback listens, so a quick browser never finds it closed.
        let shown = false;
        const showUrl = (callbackReady: boolean) => {
          if (settled || shown) return;
          shown = true;
          options.output.write(
            `To log in to ${visibleLine(request.server)}, open:\n  ${request.authorizationUrl.href}\n`,
          );
          if (options.openBrowser) openInBrowser(request.authorizationUrl.href);
          options.output.write(
            callbackReady
              ? 'Waiting for the browser… (or paste the URL you were redirected to and press Enter)\n'
              : `The callback port ${request.redirectUrl.port} is busy: after logging in, paste the URL you were redirected to and press Enter.\n`,
          );
        };
        callback.once('listening', () => showUrl(true));
        callback.on('error', () => showUrl(false));
        callback.listen(Number(request.redirectUrl.port), request.redirectUrl.hostname);
      }),
  };
}

/** Whether a browser can plausibly open here: not over SSH, and a display on Linux. */
export function canOpenBrowser(env: NodeJS.ProcessEnv): boolean {
  if (env.SSH_CONNECTION || env.SSH_TTY) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}
