import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { APP_MODULES, SERVING_MODULES } from './app.module';
import { WorkerProcessModule } from './jobs/worker-process';
import type { WorkerProcess } from './jobs/worker-process';

/**
 * `npm run worker`'s application (src/jobs/worker.ts): the service's own modules and configuration, but those that
 * only serve requests (SERVING_MODULES), so that it registers and works every kind of job the service does, and runs
 * the same periodic tasks (src/jobs/scheduler.ts), with the same options.
 */
@Module({})
export class WorkerModule {
  static of(worker: WorkerProcess): DynamicModule {
    return { module: WorkerModule, imports: [...APP_MODULES.filter((m) => !SERVING_MODULES.includes(m)), WorkerProcessModule.of(worker)] };
  }
}
