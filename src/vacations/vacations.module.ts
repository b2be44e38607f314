import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { VacationsController } from './vacations.controller';
import { VacationsResolver } from './vacations.resolver';
import { VacationsService } from './vacations.service';
import { VacationsStore } from './vacations-store';

/**
 * Vacations for correspondence play (docs/async-play.md "Vacations"). Exports VacationsService: the match view, the
 * inbox, the profile and the challenges ask it who is away; the after-append pipeline calls its step.
 */
@Module({
  imports: [AuthModule, StoreModule],
  controllers: [VacationsController],
  providers: [VacationsService, VacationsStore, VacationsResolver],
  exports: [VacationsService],
})
export class VacationsModule {}
