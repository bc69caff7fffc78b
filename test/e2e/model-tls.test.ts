/**
 * A model endpoint over https (the usual case): the model client's own transport (node:https,
 * providers/http-transport.ts) streams the answer, trusts what Node trusts — a company CA added
 * with NODE_EXTRA_CA_CERTS included — and names a certificate it cannot trust.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, REPO_ROOT, runCli } from './harness.js';

const TLS = path.join(REPO_ROOT, 'test', 'fixtures', 'tls');
const CERT = path.join(TLS, 'cert.pem');

let project: Project;
let model: FakeModel;

beforeEach(async () => {
  project = await createProject();
  model = await startFakeModel([], {
    tls: { key: readFileSync(path.join(TLS, 'key.pem')), cert: readFileSync(CERT) },
  });
});

afterEach(async () => {
  await model.close();
  await project.cleanup();
});

describe('a model endpoint over https', () => {
  it('streams the answer from a server whose CA is added with NODE_EXTRA_CA_CERTS, twice in one run', async () => {
    expect(model.url.startsWith('https://')).toBe(true);
    model.push({ toolCalls: [{ name: 'get_current_time', arguments: '{}' }] }, { text: 'secure hello' });
    const run = await runCli(['-p', 'hi', '--allow', 'get_current_time'], {
      project,
      modelUrl: model.url,
      env: { NODE_EXTRA_CA_CERTS: CERT },
    });
    expect(run.stderr).not.toContain('failed');
    expect(run.stdout).toBe('secure hello\n');
    expect(run.code).toBe(0);
    expect(model.requests).toHaveLength(2);
    // The tool ran between the two requests: its result went back in the second.
    expect(JSON.stringify(model.requests[1]?.body.messages)).toMatch(/"role":"tool"[^}]*\d{4}-\d{2}-\d{2}/);
  });

  it('names the certificate problem when the server is not trusted, and exits 1', async () => {
    model.push({ text: 'never sent' });
    const run = await runCli(['-p', 'hi'], { project, modelUrl: model.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/model request failed.*self[- ]signed certificate/i);
    expect(run.stdout).toBe('');
  });
});
