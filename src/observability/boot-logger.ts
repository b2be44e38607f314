import { ConsoleLogger } from '@nestjs/common';
import type { LogLevel } from '@nestjs/common';

/**
 * Nest's start-up chatter: a line per module initialized, per controller and
 * per route mapped (about 115 lines at boot), which buried the one line a
 * newcomer needs (where the service listens). Logged at debug instead.
 */
const CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'GraphQLModule']);

const PINO_ORDER = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
const NEST_ORDER: LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/** The Nest log levels a pino level (LOG_LEVEL) lets through: trace -> verbose and up, info -> log and up, silent -> none. */
export function nestLogLevels(level: string): LogLevel[] {
  const at = PINO_ORDER.indexOf(level);
  return NEST_ORDER.slice(at < 0 ? NEST_ORDER.indexOf('log') : at);
}

/** The application's logger: Nest's console logger, its start-up chatter at debug. */
export class BootLogger extends ConsoleLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const last = optionalParams[optionalParams.length - 1];
    const context = typeof last === 'string' ? last : this.context;
    if (context !== undefined && CHATTER.has(context)) {
      this.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }
}

/** The one message printed once the service listens: each URL it serves, and how to stop it. */
export function servedUrls(port: number, host?: string): string {
  // HOST set to one address: that address (IPv6 in brackets); unset or a wildcard (every interface): localhost reaches it.
  const wildcard = !host || host === '0.0.0.0' || host === '::';
  const name = wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${name}:${port}`;
  return [
    `Scopa service listening on ${base} (port ${port}${wildcard ? ', every interface' : `, ${host} only`})`,
    `  web client     ${base}/`,
    `  REST API       ${base}/v1   (reference: ${base}/docs/api/)`,
    `  GraphQL        ${base}/graphql   (GraphiQL: ${base}/graphiql; graphql-ws on the same path)`,
    `  guides and API reference   ${base}/docs/`,
    `  health         ${base}/health, metrics ${base}/metrics`,
    'Stop with Ctrl-C (or SIGTERM to npm start). LOG_LEVEL=debug shows every route and request.',
  ].join('\n');
}
