import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './config';

/**
 * Provides AppConfig to every module: process.env read and checked when the
 * application is created (a bad value stops it there, naming the variable).
 */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: (): AppConfig => loadConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
