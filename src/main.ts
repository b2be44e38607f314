import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp, listen } from './app.setup';
import { BootLogger, nestLogLevels, servedUrls } from './observability/boot-logger';
import { logLevel } from './observability/observability.module';
import { appConfig, ConfigError } from './config/config';
import { applyEmbeddedHeapSettings } from './node-flags';

async function bootstrap(): Promise<void> {
  const config = appConfig(); // a bad value of any variable stops the start here, naming it
  applyEmbeddedHeapSettings(config);
  // Nest's line per module and route at debug: what is left at info is the warnings and where the service listens.
  const logger = new BootLogger({ logLevels: nestLogLevels(logLevel(config)) });
  // Body parsers are installed by configureApp, so that their errors are problem documents too.
  const app = configureApp(await NestFactory.create(AppModule, { bodyParser: false, logger }));
  const address = await listen(app, config);
  logger.log(servedUrls(address.port, config.HOST), 'Bootstrap');
}

bootstrap().catch((err: unknown) => {
  // A bad variable: its message says which and what it accepts; the stack would only bury it.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
