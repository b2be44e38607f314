/**
 * The service's configuration: the environment variables declared in
 * ./variables.ts, read and checked together. A value outside its range stops
 * the start with an error naming each such variable, its value and what it
 * accepts (before, some parsers threw, others turned `Number('abc')` into
 * NaN and quietly switched a poller off).
 *
 * How code gets it:
 * - inside the application, only by injection: ConfigModule reads AppConfig
 *   when the container is built (a bad value fails `NestFactory.create`) and
 *   provides each feature's slice of it (./slices.ts: `constructor(lobby:
 *   LobbyConfig)`); a plain function a provider calls takes the setting as a
 *   parameter; a module factory lists the slice in `inject`;
 * - where there is no container (src/main.ts before the app exists, the
 *   analysis worker's bootstrap, scripts/, bench/), `appConfig()`: the same
 *   reading of process.env, kept until process.env changes. `configValue(name)`
 *   reads one variable alone.
 *
 * Nothing else under src/ reads process.env (test/config.e2e-spec.ts).
 */
import { z } from 'zod';
import { CROSS_CHECKS, VARIABLES } from './variables';
import type { ConfigValues, VariableName } from './variables';

export type RawEnv = Readonly<Record<string, string | undefined>>;

/**
 * The configuration's injection token and type: `constructor(config: AppConfig)`.
 * An abstract class (a runtime token) merged with the values' interface.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export abstract class AppConfig {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface AppConfig extends ConfigValues {}

export interface ConfigProblem {
  variable: VariableName;
  value: string | undefined;
  accepts: string;
  message: string;
}

/** One or more variables hold a value outside their range: the message names each. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super('Invalid environment: ' + problems.map((p) => `${p.variable}=${JSON.stringify(p.value)}: ${p.accepts} (${p.message})`).join('; '));
    this.name = 'ConfigError';
  }
}

const NAMES = Object.keys(VARIABLES) as VariableName[];
const SCHEMA = z.object(Object.fromEntries(NAMES.map((name) => [name, VARIABLES[name].schema])) as { [K in VariableName]: (typeof VARIABLES)[K]['schema'] });

function problemsOf(error: z.ZodError, env: RawEnv): ConfigProblem[] {
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const issue of error.issues) {
    const variable = issue.path[0] as VariableName;
    if (seen.has(variable)) continue;
    seen.add(variable);
    problems.push({ variable, value: env[variable], accepts: VARIABLES[variable].accepts, message: issue.message });
  }
  return problems;
}

/** Reads and checks every declared variable of `env`; throws ConfigError naming each bad one. */
export function loadConfig(env: RawEnv = process.env): AppConfig {
  const values: Record<string, string | undefined> = {};
  for (const name of NAMES) values[name] = env[name];
  const result = SCHEMA.safeParse(values);
  if (!result.success) throw new ConfigError(problemsOf(result.error, values));
  // Rules between variables (e.g. REDIS_URL or REDIS_SENTINELS), once each is valid alone.
  const crossed = CROSS_CHECKS.flatMap((check) => check(result.data as ConfigValues));
  if (crossed.length) throw new ConfigError(crossed.map((p) => ({ ...p, value: values[p.variable], accepts: VARIABLES[p.variable].accepts })));
  return Object.freeze(result.data) as AppConfig;
}

/** One variable alone, from its raw text (for a function that takes a value, as a unit test gives it). */
export function parseVariable<K extends VariableName>(name: K, value: string | undefined): AppConfig[K] {
  const result = VARIABLES[name].schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError([{ variable: name, value, accepts: VARIABLES[name].accepts, message: issue?.message ?? 'invalid' }]);
  }
  return result.data as AppConfig[K];
}

const single = new Map<VariableName, { value: string | undefined; parsed: unknown }>();

/** One variable's value from process.env as it is now, parsed again only when it changed: for a hot path (e.g. the JWT secret, on every request). */
export function configValue<K extends VariableName>(name: K): AppConfig[K] {
  const value = process.env[name];
  const hit = single.get(name);
  if (hit && hit.value === value) return hit.parsed as AppConfig[K];
  const parsed = parseVariable(name, value);
  single.set(name, { value, parsed });
  return parsed;
}

let cached: { key: string; config: AppConfig } | undefined;

/** The configuration of process.env as it is now (read again only when a declared variable changed). */
export function appConfig(): AppConfig {
  const env = process.env;
  let key = '';
  for (const name of NAMES) key += (env[name] ?? '\u0001') + '\u0000';
  if (cached?.key !== key) cached = { key, config: loadConfig(env) };
  return cached.config;
}
