import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';

/** Operators' reads (docs/operations.md "Background work"): the job queue's dead letters, for the admin role. REST only. */
@Module({
  controllers: [AdminController],
  providers: [AdminService],
})
export class AdminModule {}
