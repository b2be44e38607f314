import { Global, Module } from '@nestjs/common';
import type { Provider } from '@nestjs/common';
import { AppConfig, loadConfig } from './config';
import { SLICES, sliceOf } from './slices';

const slices: Provider[] = SLICES.map(([token, keys]) => ({ provide: token, useFactory: (config: AppConfig) => sliceOf(config, keys), inject: [AppConfig] }));

/**
 * Provides AppConfig and each feature's slice of it (./slices.ts) to every
 * module: process.env read and checked when the application is created (a
 * bad value stops it there, naming the variable), so each application a
 * test builds reads the environment as it is then.
 */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: (): AppConfig => loadConfig() }, ...slices],
  exports: [AppConfig, ...SLICES.map(([token]) => token)],
})
export class ConfigModule {}
