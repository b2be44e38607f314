import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './common/app.setup';

async function bootstrap(): Promise<void> {
  // Body parsers are installed by configureApp, so that their errors are problem documents too.
  const app = configureApp(await NestFactory.create(AppModule, { bodyParser: false }));
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  Logger.log(`Scopa service listening on port ${port}`, 'Bootstrap');
}

bootstrap().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
