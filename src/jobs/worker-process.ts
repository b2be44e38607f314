/**
 * What tells a module it runs in `npm run worker` (./worker.ts) rather than in
 * a service instance: the worker's application provides WORKER_PROCESS
 * (src/worker.module.ts), the service does not. A module that behaves
 * differently there injects it as optional (the analyses: at least one worker,
 * their lines on standard output).
 */
import { Global, Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

export interface WorkerProcess {
  /** A line of the worker's own output (standard output, whatever LOG_LEVEL says). */
  out(line: string): void;
  /** Adds to the worker's ready line what this module runs (e.g. how many analyses at a time). */
  note(what: string): void;
}

export const WORKER_PROCESS = Symbol('WORKER_PROCESS');

@Global()
@Module({})
export class WorkerProcessModule {
  static of(worker: WorkerProcess): DynamicModule {
    return { module: WorkerProcessModule, global: true, providers: [{ provide: WORKER_PROCESS, useValue: worker }], exports: [WORKER_PROCESS] };
  }
}
