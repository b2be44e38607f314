import { appConfig, ConfigError, configValue, loadConfig, parseVariable } from './config';
import { VARIABLES } from './variables';

describe('the configuration', () => {
  it('gives every declared default when nothing is set, and treats blank as unset', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      PG_POOL_SIZE: 10,
      RATE_LIMIT: 600,
      TOKEN_RATE_LIMIT: undefined,
      RATE_LIMIT_REDIS_PREFIX: 'scopa:rl',
      BODY_LIMIT: '64kb',
      CLOCK_POLL_MS: 1000,
      CLOCK_LOW_FRACTION: 0.1,
      CLIENT_SEED_WINDOW: 30_000,
      STREAM_KEEPALIVE: 7000,
      CHALLENGE_TTL: 86_400_000,
      REMATCH_TTL: 300_000,
      OPPONENT_GONE_AFTER: 30_000,
      RATING_PERIOD: 7 * 86_400_000,
      WEBHOOK_ALLOW_PRIVATE: false,
      CORS_ORIGINS: undefined,
      BOT_ISMCTS_ITERATIONS: 800,
    });
    expect(loadConfig({ PORT: '', RATE_LIMIT: '  ', CHALLENGE_TTL: '' })).toMatchObject({ PORT: 3000, RATE_LIMIT: 600, CHALLENGE_TTL: 86_400_000 });
    // every variable has a value or is optional: nothing is required to start
    for (const name of Object.keys(VARIABLES)) expect(name in config).toBe(true);
  });

  it('reads valid values as the service always did', () => {
    const config = loadConfig({
      PORT: '8080',
      RATE_LIMIT: ' 5 ',
      TOKEN_RATE_LIMIT: '3',
      JWT_TTL: '1.5',
      SESSION_CACHE_TTL: '0',
      CLOCK_POLL_MS: '0',
      CLOCK_LOW_FRACTION: '0.8',
      CLIENT_SEED_WINDOW: '0.5',
      STREAM_KEEPALIVE: '0.2',
      PRESENCE_TTL: 'PT2S',
      RATING_PERIOD: 'PT12H',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      CORS_ORIGINS: 'https://a.example, https://b.example,',
      TRUST_PROXY: '10.0.0.0/8, loopback',
      LOG_LEVEL: 'debug',
      IMPORT_BODY_LIMIT: '2mb',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      RATE_LIMIT: 5,
      TOKEN_RATE_LIMIT: 3,
      JWT_TTL: 1.5,
      SESSION_CACHE_TTL: 0,
      CLOCK_POLL_MS: 0,
      CLOCK_LOW_FRACTION: 0.8,
      CLIENT_SEED_WINDOW: 500,
      STREAM_KEEPALIVE: 200,
      PRESENCE_TTL: 2000,
      RATING_PERIOD: 12 * 3_600_000,
      WEBHOOK_ALLOW_PRIVATE: true,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      TRUST_PROXY: '10.0.0.0/8, loopback',
      LOG_LEVEL: 'debug',
      IMPORT_BODY_LIMIT: '2mb',
    });
  });

  it.each([
    ['CLOCK_POLL_MS', 'abc'], // Number('abc') used to turn the clock poller off silently
    ['WEBHOOK_POLL_MS', '1s'],
    ['RATE_LIMIT', '-5'],
    ['RATE_LIMIT', '0'],
    ['PORT', '70000'],
    ['PG_POOL_SIZE', '2.5'],
    ['JWT_TTL', '0'],
    ['SESSION_CACHE_TTL', '-1'],
    ['CLOCK_LOW_FRACTION', '1'],
    ['CLIENT_SEED_WINDOW', '1e3'],
    ['STREAM_KEEPALIVE', '0.01'],
    ['CHALLENGE_TTL', 'P31D'],
    ['REMATCH_TTL', '5 minutes'],
    ['RATING_PERIOD', 'P1M'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['TRUST_PROXY', 'not-an-address'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', 'big'],
    ['BOT_MATCHES_PER_ACCOUNT', '-1'],
    ['ARGON2_MEMORY_KIB', '4'],
    ['REDIS_SENTINELS', '127.0.0.1:99999'],
    ['REDIS_SENTINELS', 'a b:26379'],
    ['REDIS_SENTINEL_NAME', 'my master'],
  ])('refuses %s=%j, naming the variable, its value and what it accepts', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
    expect(message).toContain(VARIABLES[name as keyof typeof VARIABLES].accepts);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual([name]);
  });

  describe('Redis through Sentinel', () => {
    it('reads the Sentinels (the port defaults to 26379) and the master group', () => {
      const config = loadConfig({ REDIS_SENTINELS: '127.0.0.1:26390, sentinel-b, [::1]:26392', REDIS_SENTINEL_NAME: 'scopa' });
      expect(config.REDIS_SENTINELS).toEqual([
        { host: '127.0.0.1', port: 26390 },
        { host: 'sentinel-b', port: 26379 },
        { host: '::1', port: 26392 },
      ]);
      expect(config.REDIS_SENTINEL_NAME).toBe('scopa');
      expect(config.REDIS_URL).toBeUndefined();
    });

    it.each([
      [{ REDIS_SENTINELS: '127.0.0.1:26390' }, 'REDIS_SENTINEL_NAME', /required when REDIS_SENTINELS is set/],
      [{ REDIS_SENTINEL_NAME: 'scopa' }, 'REDIS_SENTINELS', /required when REDIS_SENTINEL_NAME is set/],
      [{ REDIS_SENTINELS: '127.0.0.1:26390', REDIS_SENTINEL_NAME: 'scopa', REDIS_URL: 'redis://127.0.0.1:6379' }, 'REDIS_URL', /not both/],
    ])('refuses %j at startup, naming %s', (env, variable, message) => {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.variable)).toEqual([variable]);
      expect((error as ConfigError).message).toMatch(message);
    });
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ CLOCK_POLL_MS: 'abc', RATE_LIMIT: '-5', CHALLENGE_TTL: 'soon' })).toThrow(
      /RATE_LIMIT="-5".*CLOCK_POLL_MS="abc".*CHALLENGE_TTL="soon"/,
    );
  });

  it('parses one variable alone, as the functions that take a raw value do', () => {
    expect(parseVariable('CLIENT_SEED_WINDOW', '45')).toBe(45_000);
    expect(() => parseVariable('CLIENT_SEED_WINDOW', '-1')).toThrow(/CLIENT_SEED_WINDOW="-1"/);
  });

  it('follows process.env when it changes (the tests set it between applications)', () => {
    const saved = process.env.BOT_SWEEP_MS;
    try {
      process.env.BOT_SWEEP_MS = '1234';
      expect(appConfig().BOT_SWEEP_MS).toBe(1234);
      expect(appConfig()).toBe(appConfig()); // read once while it stays the same
      process.env.BOT_SWEEP_MS = '0';
      expect(appConfig().BOT_SWEEP_MS).toBe(0);
      process.env.BOT_SWEEP_MS = 'never';
      expect(() => appConfig()).toThrow(/BOT_SWEEP_MS="never"/);
      // the one-variable read of a hot path follows it the same way
      expect(() => configValue('BOT_SWEEP_MS')).toThrow(/BOT_SWEEP_MS="never"/);
      process.env.BOT_SWEEP_MS = '77';
      expect(configValue('BOT_SWEEP_MS')).toBe(77);
      delete process.env.BOT_SWEEP_MS;
      expect(configValue('BOT_SWEEP_MS')).toBe(5000);
    } finally {
      if (saved === undefined) delete process.env.BOT_SWEEP_MS;
      else process.env.BOT_SWEEP_MS = saved;
    }
  });
});
