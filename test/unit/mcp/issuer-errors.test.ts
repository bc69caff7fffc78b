/**
 * How a refused issuer is shown: the received one is attacker-controllable (RFC 9207 mix-up), so
 * only its URL, without query, control characters or length, ever reaches the terminal.
 */
import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { issuerRefusal, shownIssuer } from '../../../src/mcp/auth/issuer-errors.js';

describe('issuer refusals', () => {
  it('shows an issuer as its URL only', () => {
    expect(shownIssuer('https://as.example/tenant?x=please+visit+evil#frag')).toBe(
      'https://as.example/tenant',
    );
    expect(shownIssuer('https://as.example/')).toBe('https://as.example');
    expect(shownIssuer('call 555-0100 to fix your account')).toBe('(not a URL)');
    expect(shownIssuer('javascript:alert(1)')).toBe('(not an http(s) URL)');
    expect(shownIssuer(undefined)).toBe('(none)');
    expect(shownIssuer(`https://as.example/${'a'.repeat(300)}`)).toHaveLength(121);
  });

  it('names the server and both issuers, and leaves other errors alone', () => {
    const refusal = issuerRefusal(
      'linear',
      new IssuerMismatchError('authorization_response', 'https://auth.linear.app', 'https://evil.example'),
    );
    expect(refusal?.message).toContain(
      'login to linear refused: the authorization response came from issuer https://evil.example, but the login went to issuer https://auth.linear.app (RFC 9207)',
    );
    expect(issuerRefusal('linear', new Error('other'))).toBeUndefined();
  });
});
