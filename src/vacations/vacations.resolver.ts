import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, MATCH_PLAY, PROFILE_READ, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { VacationsService } from './vacations.service';
import { StartVacationInput } from './vacation.input';
import { VacationModel } from './vacation.model';

/** My vacation for correspondence play over GraphQL (docs/async-play.md "Vacations"). */
@Resolver()
export class VacationsResolver {
  constructor(private readonly vacations: VacationsService) {}

  @RequireScope(PROFILE_READ)
  @Query(() => VacationModel, { description: 'My vacation (when it ends, or null) and the days of my allowance left.' })
  vacation(@Caller() caller: Principal): Promise<VacationModel> {
    return this.vacations.status(caller);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => VacationModel, {
    description:
      'Go on vacation until a time within my allowance (VACATION_DAYS_PER_YEAR in any 365 days): my turn clocks in correspondence matches stand still until then. LIMIT_REACHED beyond the allowance, CONFLICT when already on vacation.',
  })
  startVacation(@Caller() caller: Principal, @Args() args: StartVacationInput): Promise<VacationModel> {
    return this.vacations.start(caller, args.until);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => VacationModel, {
    description: 'End my vacation now (nothing when none runs): my correspondence clocks run again with the time they had left.',
  })
  endVacation(@Caller() caller: Principal): Promise<VacationModel> {
    return this.vacations.end(caller);
  }
}
