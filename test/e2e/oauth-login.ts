/** `geekagent mcp login` through the built CLI, with the test playing the person at the browser. */
import { spawn } from 'node:child_process';
import { CLI, type Project, testEnv } from './harness.js';

/**
 * Runs `mcp login` and plays the person: `paste` pastes back the URL the authorization page
 * redirects to; `browser` follows that redirect to the CLI's loopback callback, as a browser does.
 */
export function runLogin(
  project: Project,
  how: 'paste' | 'browser',
  server = 'secure',
): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  pastedUrl: string;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--trust', 'mcp', 'login', server], {
      cwd: project.dir,
      // No DISPLAY: the CLI must not try a browser and offers paste-back.
      env: testEnv({ project }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pastedUrl = '';
    let visited = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const visit = async (authorizationUrl: string) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      pastedUrl = response.headers.get('location') ?? '';
      if (how === 'paste') child.stdin.write(`${pastedUrl}\n`);
      else await (await fetch(pastedUrl)).text();
    };
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /open:\n\s+(\S+)\n/.exec(stderr); // the whole URL, not a chunk of it
      // Later chunks must not visit the page a second time while the first visit is in flight.
      if (!match || visited) return;
      visited = true;
      visit(match[1]!).catch((error: unknown) => {
        child.kill('SIGKILL');
        reject(error);
      });
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`login did not finish:\n${stderr}`));
    }, 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pastedUrl });
    });
  });
}
