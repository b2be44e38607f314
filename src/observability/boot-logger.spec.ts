import { BootLogger, nestLogLevels, servedUrls } from './boot-logger';

describe('the boot logger', () => {
  it('maps LOG_LEVEL (pino) to the Nest levels it lets through', () => {
    expect(nestLogLevels('info')).toEqual(['log', 'warn', 'error', 'fatal']);
    expect(nestLogLevels('debug')).toEqual(['debug', 'log', 'warn', 'error', 'fatal']);
    expect(nestLogLevels('trace')).toEqual(['verbose', 'debug', 'log', 'warn', 'error', 'fatal']);
    expect(nestLogLevels('warn')).toEqual(['warn', 'error', 'fatal']);
    expect(nestLogLevels('silent')).toEqual([]);
  });

  function printed(levels: string) {
    const logger = new BootLogger({ logLevels: nestLogLevels(levels), colors: false });
    const out: string[] = [];
    const write = (chunk: unknown) => (out.push(String(chunk)), true);
    const stdout = process.stdout.write;
    process.stdout.write = write as typeof process.stdout.write;
    try {
      logger.log('Mapped {/v1/matches, POST} route', 'RouterExplorer');
      logger.log('AppModule dependencies initialized', 'InstanceLoader');
      logger.log('applied migrations: 1', 'Database');
      logger.log(servedUrls(3000), 'Bootstrap');
    } finally {
      process.stdout.write = stdout;
    }
    return out.join('');
  }

  it("puts Nest's route and module lines at debug, and keeps the service's own lines at info", () => {
    const info = printed('info');
    expect(info).not.toMatch(/Mapped|dependencies initialized/);
    expect(info).toContain('applied migrations');
    expect(info).toContain('Scopa service listening on http://localhost:3000');
    const debug = printed('debug');
    expect(debug).toMatch(/DEBUG \[RouterExplorer\] Mapped \{\/v1\/matches, POST\} route/);
    expect(debug).toMatch(/DEBUG \[InstanceLoader\] AppModule dependencies initialized/);
  });

  it('names the address HOST binds it to (an IPv6 one in brackets); every interface is reached at localhost', () => {
    expect(servedUrls(4321, '127.0.0.1')).toContain('Scopa service listening on http://127.0.0.1:4321 (port 4321, 127.0.0.1 only)');
    expect(servedUrls(4321, '127.0.0.1')).toContain('http://127.0.0.1:4321/graphql');
    expect(servedUrls(4321, '::1')).toContain('http://[::1]:4321/v1');
    for (const every of [undefined, '0.0.0.0', '::'])
      expect(servedUrls(4321, every)).toContain('Scopa service listening on http://localhost:4321 (port 4321, every interface)');
  });

  it('names every URL the service serves, and how to stop it', () => {
    const text = servedUrls(4321);
    for (const url of ['/', '/v1', '/docs/api/', '/graphql', '/graphiql', '/docs/', '/health']) expect(text).toContain(`http://localhost:4321${url}`);
    expect(text).toMatch(/Ctrl-C/);
  });
});
