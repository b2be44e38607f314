import { SCOPES, SCOPE_ALIASES, SCOPE_DESCRIPTIONS, TOKEN_SCOPES, expandScopes } from './principal';

describe('scopes', () => {
  it("the fine scopes are the issue's, verbatim, each described", () => {
    expect([...SCOPES]).toEqual([
      'profile:read',
      'match:read',
      'match:play',
      'challenge:write',
      'webhook:write',
      'ruleset:write',
      'tournament:write',
      'social:write',
      'team:write',
      'push:write',
    ]);
    for (const s of SCOPES) expect(SCOPE_DESCRIPTIONS[s].length).toBeGreaterThan(10);
    expect([...TOKEN_SCOPES]).toEqual([...SCOPES, 'read', 'play']);
  });

  it('read and play expand to what they allowed before; unknown names are dropped; the order is SCOPES order', () => {
    expect(SCOPE_ALIASES).toEqual({ read: ['profile:read', 'match:read'], play: ['match:play', 'webhook:write'] });
    expect(expandScopes(['read'])).toEqual(['profile:read', 'match:read']);
    expect(expandScopes(['play'])).toEqual(['match:play', 'webhook:write']);
    expect(expandScopes(['play', 'read', 'match:read'])).toEqual(['profile:read', 'match:read', 'match:play', 'webhook:write']);
    expect(expandScopes(['openid', 'admin', '', 'constructor', '__proto__', 'ruleset:write'])).toEqual(['ruleset:write']);
    expect(expandScopes([])).toEqual([]);
  });
});
